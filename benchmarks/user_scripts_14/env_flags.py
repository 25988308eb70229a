import os

import warp as wp

USE_FAST = os.environ.get("SIM_FAST", "0") == "1"


def make_step(fast=USE_FAST):
    @wp.kernel
    def step_env(x: wp.array(dtype=float), v: wp.array(dtype=float)):
        i = wp.tid()
        if wp.static(fast):
            x[i] = x[i] + v[i]
        else:
            x[i] = x[i] + 0.5 * v[i]

    return step_env


def make_taps(n):
    @wp.kernel
    def taps_env(src: wp.array(dtype=float), dst: wp.array(dtype=float)):
        i = wp.tid()
        acc = float(0.0)
        for k in range(n):
            acc += src[(i + k) % src.shape[0]]
        dst[i] = acc / float(n)

    return taps_env


def main():
    taps = int(os.environ.get("SIM_TAPS", 3))
    x = wp.zeros(6, dtype=float)
    v = wp.full(6, 1.0, dtype=float)
    wp.launch(make_step(), dim=6, inputs=[x, v])
    out = wp.zeros(6, dtype=float)
    wp.launch(make_taps(taps), dim=6, inputs=[x, out])
    print(out.numpy())


if __name__ == "__main__":
    main()
