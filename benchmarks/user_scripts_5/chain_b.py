import warp as wp
from chain_c import safe_div, sq


@wp.func
def rel_error(a: float, b: float) -> float:
    return safe_div(wp.abs(a - b), wp.abs(b))


@wp.func
def energy(v: wp.vec3, m: float) -> float:
    return 0.5 * m * (sq(v[0]) + sq(v[1]) + sq(v[2]))
