import warp as wp

EPS = wp.constant(1.0e-6)
GRAVITY = wp.constant(wp.vec3(0.0, -9.81, 0.0))


@wp.struct
class Particle:
    x: wp.vec3
    v: wp.vec3
    inv_mass: float


@wp.struct
class SimParams:
    dt: float
    damping: float
    ground: float


@wp.func
def safe_normalize(v: wp.vec3):
    l = wp.length(v)
    if l > EPS:
        return v / l
    return wp.vec3(0.0)
