import sys

import warp as wp

wp.init()


@wp.kernel
def touch(a: wp.array(dtype=int)):
    i = wp.tid()
    a[i] = i


@wp.kernel
def bandwidth_copy(src: wp.array(dtype=wp.vec4), dst: wp.array(dtype=wp.vec4)):
    i = wp.tid()
    dst[i] = src[i]


if not wp.is_cuda_available():
    print("no CUDA device, nothing to benchmark")
    sys.exit(0)

n = 1 << 24
src = wp.zeros(n, dtype=wp.vec4, device="cuda:0")
dst = wp.zeros_like(src)
with wp.ScopedTimer("copy"):
    for _ in range(100):
        wp.launch(bandwidth_copy, dim=n, inputs=[src, dst])
    wp.synchronize()
