import warp as wp

from .shading import gamma


@wp.struct
class Ray:
    origin: wp.vec3
    direction: wp.vec3


@wp.func
def sphere_hit(r: Ray, center: wp.vec3, radius: float) -> float:
    oc = r.origin - center
    b = wp.dot(oc, r.direction)
    c = wp.dot(oc, oc) - radius * radius
    h = b * b - c
    if h < 0.0:
        return -1.0
    return -b - wp.sqrt(h)


@wp.func
def tone(c: float) -> float:
    return gamma(wp.clamp(c, 0.0, 1.0))
