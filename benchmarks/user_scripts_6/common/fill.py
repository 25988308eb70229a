import warp as wp


@wp.kernel
def fill_common(a: wp.array(dtype=float), value: float):
    a[wp.tid()] = value
