#!/usr/bin/env python
"""Heightfield erosion toy. Usage: python main_block.py [steps] [size]"""
import argparse
import os
import sys

import numpy as np
import warp as wp


@wp.kernel
def init_height(h: wp.array2d(dtype=float), seed: int):
    i, j = wp.tid()
    state = wp.rand_init(seed, i * 1024 + j)
    h[i, j] = wp.randf(state) * 10.0


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("steps", nargs="?", type=int, default=4)
    parser.add_argument("size", nargs="?", type=int, default=16)
    parser.add_argument("--verbose", "-v", action="store_true")
    args = parser.parse_args()

    # init late, only once we know we are really running
    wp.config.verbose = args.verbose
    wp.init()

    @wp.kernel
    def erode(h: wp.array2d(dtype=float), out: wp.array2d(dtype=float), rate: float):
        i, j = wp.tid()
        n = h.shape[0]
        c = h[i, j]
        lo = c
        if i > 0:
            lo = wp.min(lo, h[i - 1, j])
        if i < n - 1:
            lo = wp.min(lo, h[i + 1, j])
        if j > 0:
            lo = wp.min(lo, h[i, j - 1])
        if j < n - 1:
            lo = wp.min(lo, h[i, j + 1])
        out[i, j] = c - rate * (c - lo)

    @wp.kernel
    def total(h: wp.array2d(dtype=float), s: wp.array(dtype=float)):
        i, j = wp.tid()
        wp.atomic_add(s, 0, h[i, j])

    device = wp.get_preferred_device() if not wp.get_cuda_device_count() else "cuda:0"
    n = args.size
    h = wp.zeros((n, n), dtype=float, device=device)
    tmp = wp.zeros_like(h)
    wp.launch(init_height, dim=(n, n), inputs=[h, 42], device=device)
    for _ in range(args.steps):
        wp.launch(erode, dim=(n, n), inputs=[h, tmp, 0.25], device=device)
        h, tmp = tmp, h
    s = wp.zeros(1, dtype=float, device=device)
    wp.launch(total, dim=(n, n), inputs=[h, s], device=device)
    print("mass", s.numpy()[0], np.asarray(h.numpy()).max())
    sys.stdout.flush()
    # skip interpreter teardown, it is slow with big arrays
    os._exit(0)
