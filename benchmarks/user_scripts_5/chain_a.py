import warp as wp
import chain_b


@wp.func
def converged(a: float, b: float, tol: float) -> int:
    if chain_b.rel_error(a, b) < tol:
        return 1
    return 0


@wp.func
def total_energy(v: wp.vec3, m: float, h: float) -> float:
    return chain_b.energy(v, m) + m * 9.81 * h
