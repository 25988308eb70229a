"""A script kept in a plain subfolder (no __init__.py)."""

import itertools

import warp as wp


def make_stencil(weights):
    W0, W1, W2 = (float(w) for w in weights)

    @wp.kernel
    def stencil3(src: wp.array(dtype=float), dst: wp.array(dtype=float)):
        i = wp.tid()
        n = src.shape[0]
        l = src[wp.max(i - 1, 0)]
        r = src[wp.min(i + 1, n - 1)]
        dst[i] = W0 * l + W1 * src[i] + W2 * r

    return stencil3


src = wp.array([float(i) for i in range(10)], dtype=float, device="cpu")
dst = wp.zeros_like(src)
for w in itertools.islice(itertools.product([0.25, 0.5], repeat=3), 2):
    wp.launch(make_stencil(w), dim=10, inputs=[src, dst], device="cpu")
    print(w, dst.numpy()[:3])
