import logging
import warnings

import warp as wp

log = logging.getLogger(__name__)


def make_repeat(n):
    if n <= 0:
        raise ValueError("n must be positive")
    assert isinstance(n, int), "n must be an int"
    log.debug("building repeat kernel n=%d", n)

    @wp.kernel
    def repeat_add(a: wp.array(dtype=float)):
        i = wp.tid()
        for _ in range(n):
            a[i] = a[i] + 1.0

    return repeat_add


def make_decay(rate):
    if rate > 1.0:
        warnings.warn("rate above 1 grows instead of decaying", stacklevel=2)
    print(f"decay kernel, rate={rate}")

    @wp.kernel
    def decay_logged(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] * rate

    return decay_logged


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    a = wp.zeros(4, dtype=float)
    wp.launch(make_repeat(3), dim=4, inputs=[a])
    wp.launch(make_decay(0.5), dim=4, inputs=[a])
    print(a.numpy())
