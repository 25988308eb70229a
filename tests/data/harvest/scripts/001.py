import warp as wp


@wp.kernel(module="shared_name")
def scale(a: wp.array[float], s: float):
    i = wp.tid()
    a[i] = a[i] * s + 1.0
