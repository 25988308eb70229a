import warp as wp


def make_scale(s: float):
    @wp.kernel
    def scale_cls(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = x[i] * s

    return scale_cls


def make_shift(k: int):
    @wp.kernel
    def shift_cls(x: wp.array(dtype=float), y: wp.array(dtype=float)):
        i = wp.tid()
        n = x.shape[0]
        y[i] = x[(i + k) % n]

    return shift_cls


class Library:
    SCALERS = [make_scale(s) for s in (0.5, 2.0)]
    SHIFTS = {k: make_shift(k) for k in (1, 2)}


if __name__ == "__main__":
    x = wp.array([1.0, 2.0, 3.0, 4.0], dtype=float)
    y = wp.zeros(4, dtype=float)
    for k in Library.SCALERS:
        wp.launch(k, dim=4, inputs=[x])
    wp.launch(Library.SHIFTS[2], dim=4, inputs=[x, y])
    print(y.numpy())
