import warp as wp


@wp.func
def lambert(n: wp.vec3, l: wp.vec3) -> float:
    return wp.max(wp.dot(wp.normalize(n), wp.normalize(l)), 0.0)


@wp.func
def gamma(c: float) -> float:
    return wp.pow(c, 1.0 / 2.2)
