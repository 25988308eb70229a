import warp as wp


@wp.func
def smin(a: float, b: float, k: float):
    h = wp.clamp(0.5 + 0.5 * (b - a) / k, 0.0, 1.0)
    return wp.lerp(b, a, h) - k * h * (1.0 - h)


@wp.func
def saturate(x: float):
    return wp.clamp(x, 0.0, 1.0)
