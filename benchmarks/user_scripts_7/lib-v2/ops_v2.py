import warp as wp


@wp.func
def huber(r: float, delta: float):
    a = wp.abs(r)
    if a <= delta:
        return 0.5 * r * r
    return delta * (a - 0.5 * delta)


@wp.kernel
def huber_loss(r: wp.array(dtype=float), delta: float, loss: wp.array(dtype=float)):
    wp.atomic_add(loss, 0, huber(r[wp.tid()], delta))
