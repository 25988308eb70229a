# bottom of the helper chain: step 3 (final).py -> chain_a -> chain_b -> chain_c
import warp as wp

EPS = wp.constant(1.0e-6)


@wp.func
def safe_div(a: float, b: float) -> float:
    return a / (b + EPS)


@wp.func
def sq(x: float) -> float:
    return x * x
