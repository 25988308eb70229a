import warp as wp


@wp.kernel
def before_the_error(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = 0.0


raise RuntimeError("this file fails at import")
