import warp as wp


@wp.kernel(enable_backward=False)
def no_backward(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = a[i] * 2.0


@wp.kernel(launch_bounds=(128, 1))
def bounded(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = wp.sin(a[i])


@wp.kernel(module="unique", module_options={"fast_math": True})
def unique_fast(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = wp.sqrt(a[i])


@wp.kernel(name="renamed_kernel")
def named(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = -a[i]
