import warp as wp


@wp.func
def sphere_sdf(p: wp.vec3, r: float) -> float:
    return wp.length(p) - r
