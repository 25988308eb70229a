import warp as wp

# Warp reads this when a module is made: the Warp module named below is made without backward code.
wp.config.enable_backward = False


@wp.kernel(module="shared_name")
def scale(a: wp.array[float], s: float):
    i = wp.tid()
    a[i] = a[i] * s + 1.0
