import argparse

import warp as wp


def make_decay(rate: float):
    @wp.kernel
    def decay_argvlist(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = x[i] * wp.exp(-rate)

    return decay_argvlist


def make_window(width: int):
    @wp.kernel
    def window_argvlist(x: wp.array(dtype=float), y: wp.array(dtype=float)):
        i = wp.tid()
        n = x.shape[0]
        s = float(0.0)
        for k in range(width):
            s += x[wp.min(i + k, n - 1)]
        y[i] = s / float(width)

    return window_argvlist


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--rate", type=float, default=0.1)
    parser.add_argument("--width", type=int, default=2)
    args = parser.parse_args(argv)
    x = wp.ones(6, dtype=float)
    y = wp.zeros(6, dtype=float)
    wp.launch(make_decay(args.rate), dim=6, inputs=[x])
    wp.launch(make_window(args.width), dim=6, inputs=[x, y])
    print(y.numpy())


if __name__ == "__main__":
    main(["--rate", "0.5", "--width", "3"])
