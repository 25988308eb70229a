import warp as wp


@wp.struct
class Sphere:
    center: wp.vec3
    radius: float


@wp.func
def sphere_sdf(s: Sphere, p: wp.vec3):
    return wp.length(p - s.center) - s.radius
