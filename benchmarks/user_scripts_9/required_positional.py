"""argparse with a required positional at top level, before the kernels (run as: python required_positional.py 2.0)."""

import argparse
import sys

import numpy as np
import warp as wp

parser = argparse.ArgumentParser()
parser.add_argument("scale", type=float, help="scale factor")
parser.add_argument("--bias", type=float, default=0.0)
if len(sys.argv) == 1:
    sys.argv.append("2.0")  # a default for quick runs
args = parser.parse_args()


@wp.kernel
def scale_bias(x: wp.array(dtype=float), s: float, b: float):
    i = wp.tid()
    x[i] = x[i] * s + b


@wp.kernel
def squash(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = x[i] / (1.0 + wp.abs(x[i]))


x = wp.array(np.arange(6, dtype=np.float32))
wp.launch(scale_bias, dim=6, inputs=[x, args.scale, args.bias])
wp.launch(squash, dim=6, inputs=[x])
print(x.numpy())
