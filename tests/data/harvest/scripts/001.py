import warp as wp

# Warp reads this when a module is made: the Warp module named below is made without backward code.
wp.config.enable_backward = False


@wp.kernel(module="shared_name")
def scale(a: wp.array[float], s: float):
    i = wp.tid()
    a[i] = a[i] * s + 1.0


# A Warp module made directly: Warp's registry does not list it.
own_module = wp.Module("my_own_module", None)


@wp.kernel(module=own_module)
def offset(a: wp.array[float]):
    i = wp.tid()
    a[i] = a[i] + 0.5

# What a script writes to its working directory (Warp's tile examples write benchmark.csv) stays in the harvest's.
with open("written_by_001.txt", "w") as f:
    f.write("a script's output\n")
