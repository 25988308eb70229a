#!/usr/bin/env python
"""Not a module: run it."""
import sys

if __name__ != "__main__":
    raise ImportError("run_only.py is a script, run it with python run_only.py")

import numpy as np
import warp as wp


@wp.kernel
def cumulative_max(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    m = a[0]
    for j in range(i + 1):
        m = wp.max(m, a[j])
    out[i] = m


@wp.kernel
def count_peaks(a: wp.array(dtype=float), n: wp.array(dtype=int)):
    i = wp.tid()
    if i > 0 and i < a.shape[0] - 1:
        if a[i] > a[i - 1] and a[i] > a[i + 1]:
            wp.atomic_add(n, 0, 1)


a = wp.array(np.sin(np.linspace(0, 12, 40)).astype(np.float32))
out = wp.zeros_like(a)
wp.launch(cumulative_max, dim=40, inputs=[a, out])
n = wp.zeros(1, dtype=int)
wp.launch(count_peaks, dim=40, inputs=[a, n])
print(n.numpy()[0], file=sys.stderr)
