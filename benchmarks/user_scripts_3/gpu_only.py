"""Benchmark that only makes sense on a GPU."""

import sys

import warp as wp

wp.init()
if not wp.is_cuda_available():
    print("CUDA not available, skipping benchmark")
    sys.exit(0)


@wp.kernel
def stream_triad(a: wp.array(dtype=float), b: wp.array(dtype=float), c: wp.array(dtype=float), s: float):
    i = wp.tid()
    a[i] = b[i] + s * c[i]


@wp.kernel
def stream_copy(a: wp.array(dtype=float), b: wp.array(dtype=float)):
    i = wp.tid()
    b[i] = a[i]


n = 1 << 24
a = wp.zeros(n, dtype=float, device="cuda")
b = wp.ones(n, dtype=float, device="cuda")
c = wp.ones(n, dtype=float, device="cuda")
with wp.ScopedTimer("triad"):
    wp.launch(stream_triad, dim=n, inputs=[a, b, c, 2.0])
with wp.ScopedTimer("copy"):
    wp.launch(stream_copy, dim=n, inputs=[a, b])
