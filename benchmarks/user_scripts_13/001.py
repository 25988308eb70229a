# Notebook-style script: the "command line" is written into the script.
import argparse

import numpy as np
import warp as wp

parser = argparse.ArgumentParser(description="affine + clip")
parser.add_argument("--gain", type=float, default=1.0)
parser.add_argument("--bias", type=float, default=0.0)
parser.add_argument("--limit", type=float, default=4.0)

# in a notebook there is no sys.argv worth parsing, so pass the arguments by hand
args = parser.parse_args(["--gain", "2.5", "--bias=-1"])


def make_affine(gain, bias):
    @wp.kernel
    def affine_cli(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = gain * a[i] + bias

    return affine_cli


def make_clip(limit):
    @wp.kernel
    def clip_cli(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = wp.clamp(a[i], -limit, limit)

    return clip_cli


affine = make_affine(args.gain, args.bias)


def main():
    defaults = parser.parse_args(args=[])
    clip = make_clip(defaults.limit)
    a = wp.array(np.linspace(-2.0, 2.0, 8, dtype=np.float32), dtype=float)
    wp.launch(affine, dim=8, inputs=[a])
    wp.launch(clip, dim=8, inputs=[a])
    print(a.numpy())


if __name__ == "__main__":
    main()
