import warp as wp


@wp.func
def soft_clip(x: float, k: float) -> float:
    return x / (1.0 + wp.abs(x) / k)
