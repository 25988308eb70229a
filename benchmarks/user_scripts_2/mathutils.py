# small math helpers I keep reusing
import warp as wp

EPS = wp.constant(1.0e-6)
PI2 = wp.constant(6.283185307179586)


@wp.func
def smoothstep(e0: float, e1: float, x: float):
    t = wp.clamp((x - e0) / (e1 - e0 + EPS), 0.0, 1.0)
    return t * t * (3.0 - 2.0 * t)


@wp.func
def safe_normalize(v: wp.vec3):
    l = wp.length(v)
    if l < EPS:
        return wp.vec3(0.0, 0.0, 0.0)
    return v / l
