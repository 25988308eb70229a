import warp as wp

GRAVITY = wp.constant(wp.vec3(0.0, -9.81, 0.0))


@wp.func
def spring(x: wp.vec3, rest: float, k: float):
    l = wp.length(x)
    if l < 1.0e-6:
        return wp.vec3()
    return -k * (l - rest) * (x / l)


@wp.func
def drag(v: wp.vec3, c: float):
    return -c * v
