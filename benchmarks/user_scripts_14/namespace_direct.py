import argparse

import warp as wp

DEFAULTS = {"lo": -0.5, "hi": 0.5}


def make_affine(gain, bias):
    @wp.kernel
    def affine_ns(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = gain * a[i] + bias

    return affine_ns


def make_clamp(lo, hi):
    @wp.kernel
    def clamp_ns(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = wp.clamp(a[i], lo, hi)

    return clamp_ns


def main():
    # settings made by hand in a notebook instead of parsing a command line
    args = argparse.Namespace(gain=2.0, bias=0.25)
    limits = argparse.Namespace(**DEFAULTS)
    a = wp.full(4, 1.0, dtype=float)
    wp.launch(make_affine(args.gain, args.bias), dim=4, inputs=[a])
    wp.launch(make_clamp(limits.lo, limits.hi), dim=4, inputs=[a])
    print(a.numpy())


if __name__ == "__main__":
    main()
