# Kernels a function makes from its arguments, called where loading the script does not run.
import argparse

import warp as wp

SIZES = (4, 8)


def make_fill(dtype, value):
    @wp.kernel
    def fill(a: wp.array(dtype=dtype)):
        a[wp.tid()] = dtype(value)

    return fill


def make_scaled(n: int, scale=2.0):
    vec_t = wp.types.vector(length=n, dtype=float)
    half = scale * 0.5

    @wp.func
    def shrink(v: vec_t):
        return v * half

    @wp.kernel
    def scaled(a: wp.array(dtype=vec_t)):
        i = wp.tid()
        a[i] = shrink(a[i]) * scale

    return scaled


def make_and_launch(offset: float):
    # It launches (and writes a file) as well: only the statements the kernel's definition needs run.
    @wp.kernel
    def shifted(a: wp.array(dtype=float)):
        a[wp.tid()] += offset

    with open("launched.txt", "w") as f:
        f.write("ran\n")
    wp.launch(shifted, dim=1, inputs=[wp.zeros(1, dtype=float)])


def make_unknown(k):
    @wp.kernel
    def unknown(a: wp.array(dtype=float)):
        a[wp.tid()] = float(k)

    return unknown


class Solver:
    def __init__(self, n, order=2):
        self.kernel = make_scaled(n, scale=float(order))


def run(args):
    for dtype in (wp.float32, wp.float64):
        make_fill(dtype, args.value)
    for n in SIZES:
        Solver(n)
    make_unknown(open("k.txt").read())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fill-value", dest="value", type=float, default=3.0)
    run(parser.parse_args())
    make_and_launch(1.5)


if __name__ == "__main__":
    main()
