import warp as wp


@wp.func
def halve(x: float):
    return 0.5 * x
