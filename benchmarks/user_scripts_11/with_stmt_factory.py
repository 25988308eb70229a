import contextlib

import warp as wp


@contextlib.contextmanager
def timed(label):
    yield label


def make_scale(s: float):
    with timed("build"):
        factor = s * 2.0

        @wp.kernel
        def with_scale(a: wp.array(dtype=float)):
            i = wp.tid()
            a[i] = a[i] * factor

    return with_scale


def make_shift(d: float):
    try:
        amount = float(d)
    except (TypeError, ValueError):
        amount = 0.0
    else:
        amount += 1.0

    @wp.kernel
    def try_shift(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] + amount

    return try_shift


a = wp.ones(4, dtype=float)
wp.launch(make_scale(1.5), dim=4, inputs=[a])
wp.launch(make_shift("2"), dim=4, inputs=[a])
print(a.numpy())
