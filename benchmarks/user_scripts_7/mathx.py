"""My little math library (wp.funcs only)."""
import warp as wp


@wp.func
def smoothstep(e0: float, e1: float, x: float):
    t = wp.clamp((x - e0) / (e1 - e0), 0.0, 1.0)
    return t * t * (3.0 - 2.0 * t)


@wp.func
def clamp01(x: float):
    return wp.clamp(x, 0.0, 1.0)


@wp.func
def length(v: wp.vec2):
    # my own length: the L1 norm, shadowing wp.length's name on purpose
    return wp.abs(v[0]) + wp.abs(v[1])


EPS = wp.constant(1.0e-6)
