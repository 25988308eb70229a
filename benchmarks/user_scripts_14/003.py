import os

import warp as wp


def make_decay(rate):
    @wp.kernel
    def decay_guard(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] * wp.exp(-rate)

    return decay_guard


def make_power(p):
    @wp.kernel
    def power_guard(a: wp.array(dtype=float)):
        i = wp.tid()
        v = float(1.0)
        for _ in range(p):
            v = v * a[i]
        a[i] = v

    return power_guard


def run(rate=0.1):
    a = wp.full(4, 2.0, dtype=float)
    wp.launch(make_decay(rate), dim=4, inputs=[a])
    print(a.numpy())


if __name__ == "__main__" and not os.environ.get("SKIP_DEMO"):
    run(0.3)

if "__main__" == __name__:
    b = wp.full(4, 1.5, dtype=float)
    wp.launch(make_power(3), dim=4, inputs=[b])
    print(b.numpy())
