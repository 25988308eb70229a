import warp as wp


@wp.kernel(enable_backward=False)
def scale(a: wp.array(dtype=float), s: float, b: wp.array(dtype=float)):
    i = wp.tid()
    b[i] = a[i] * a[i] * s


@wp.func
def bump(x: wp.ref[float], by: float):
    x += by


@wp.kernel(enable_backward=False)
def bumped(a: wp.array(dtype=float), b: wp.array(dtype=float)):
    # Warp 1.19 generates no adjoint through a `wp.ref` parameter: the backward build raises.
    i = wp.tid()
    x = a[i]
    bump(x, 1.0)
    b[i] = x
