import argparse
import ast
import shlex

import warp as wp

# pasted from a log file
CFG = ast.literal_eval("{'k': 3, 'w': (0.25, 0.5, 0.25)}")
DEFAULT_CMD = "--taps 5"


@wp.kernel
def weighted_taps(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    n = a.shape[0]
    s = float(0.0)
    for k in range(wp.static(CFG["k"])):
        j = wp.clamp(i + k - 1, 0, n - 1)
        s += wp.static(CFG["w"][k]) * a[j]
    out[i] = s


def make_box(taps):
    half = taps // 2

    @wp.kernel
    def box_taps(a: wp.array(dtype=float), out: wp.array(dtype=float)):
        i = wp.tid()
        n = a.shape[0]
        s = float(0.0)
        for k in range(-half, half + 1):
            s += a[wp.clamp(i + k, 0, n - 1)]
        out[i] = s / float(taps)

    return box_taps


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--taps", type=int, default=3)
    args = parser.parse_args(shlex.split(DEFAULT_CMD))
    a = wp.array([0.0, 1.0, 4.0, 9.0, 16.0, 25.0], dtype=float)
    out = wp.zeros_like(a)
    wp.launch(weighted_taps, dim=a.shape, inputs=[a, out])
    print(out.numpy())
    wp.launch(make_box(args.taps), dim=a.shape, inputs=[a, out])
    print(out.numpy())


if __name__ == "__main__":
    main()
