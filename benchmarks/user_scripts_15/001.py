# quick sweep driver: python 001.py [repeats] [scale]
import sys

import numpy as np
import warp as wp


def make_repeat(n: int):
    @wp.kernel
    def repeat_argv(x: wp.array(dtype=float), y: wp.array(dtype=float)):
        i = wp.tid()
        acc = float(0.0)
        for _ in range(n):
            acc += x[i]
        y[i] = acc

    return repeat_argv


def make_scale(s: float):
    @wp.kernel
    def scale_argv(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = x[i] * s

    return scale_argv


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    scale = float(sys.argv[2]) if len(sys.argv) > 2 else 0.5
    x = wp.array(np.arange(8, dtype=np.float32), dtype=float)
    y = wp.zeros_like(x)
    wp.launch(make_repeat(n), dim=8, inputs=[x, y])
    wp.launch(make_scale(scale), dim=8, inputs=[y])
    print(y.numpy())


if __name__ == "__main__":
    main()
