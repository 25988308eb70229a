import warp as wp


@wp.kernel
def returns_a_value(a: wp.array(dtype=float)):
    i = wp.tid()
    return a[i]  # kernels cannot return values: Warp's codegen refuses it


@wp.kernel
def fine(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = 2.0 * a[i]
