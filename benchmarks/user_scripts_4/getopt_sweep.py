"""Sweep smoothing kernels. python getopt_sweep.py [-n 32] [-k box|gauss|tri]"""
import getopt
import sys

import numpy as np
import warp as wp

CONFIGS = {
    "box": {"radius": 1, "weights": (1.0, 1.0, 1.0)},
    "gauss": {"radius": 2, "weights": (1.0, 4.0, 6.0, 4.0, 1.0)},
    "tri": {"radius": 2, "weights": (1.0, 2.0, 3.0, 2.0, 1.0)},
}


def make_smoother(radius, weights):
    total = float(sum(weights))
    w = wp.types.vector(length=len(weights), dtype=float)(*[x / total for x in weights])

    @wp.kernel
    def smooth(src: wp.array(dtype=float), dst: wp.array(dtype=float)):
        i = wp.tid()
        n = src.shape[0]
        acc = float(0.0)
        for d in range(wp.static(2 * radius + 1)):
            j = wp.clamp(i + d - radius, 0, n - 1)
            acc += src[j] * w[d]
        dst[i] = acc

    return smooth


def main(argv):
    n, only = 32, None
    opts, _ = getopt.getopt(argv, "n:k:", ["size=", "kernel="])
    for o, a in opts:
        if o in ("-n", "--size"):
            n = int(a)
        elif o in ("-k", "--kernel"):
            only = a
    kernels = {name: make_smoother(**cfg) for name, cfg in CONFIGS.items() if only in (None, name)}
    src = wp.array(np.random.rand(n).astype(np.float32), device="cpu")
    dst = wp.zeros_like(src)
    for name, k in kernels.items():
        wp.launch(k, dim=n, inputs=[src, dst], device="cpu")
        print(name, float(dst.numpy().std()))


if __name__ == "__main__":
    main(sys.argv[1:])
