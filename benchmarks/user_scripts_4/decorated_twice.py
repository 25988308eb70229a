import time
from collections import OrderedDict

import numpy as np
import warp as wp

KERNELS = OrderedDict()


def register(name):
    def deco(k):
        KERNELS[name] = k
        return k

    return deco


def timed_launch(kernel, dim, inputs):
    t0 = time.perf_counter()
    wp.launch(kernel, dim=dim, inputs=inputs, device="cpu")
    wp.synchronize()
    return time.perf_counter() - t0


@register("invert")
@wp.kernel
def invert(img: wp.array2d(dtype=float)):
    i, j = wp.tid()
    img[i, j] = 1.0 - img[i, j]


@register("gamma")
@wp.kernel(enable_backward=False)
def gamma(img: wp.array2d(dtype=float)):
    i, j = wp.tid()
    img[i, j] = wp.pow(wp.max(img[i, j], 0.0), 2.2)


def _posterize(img: wp.array2d(dtype=float)):
    i, j = wp.tid()
    img[i, j] = wp.floor(img[i, j] * 4.0) / 4.0


KERNELS["posterize"] = wp.kernel(enable_backward=False)(_posterize)

img = wp.array(np.random.rand(16, 16).astype(np.float32), device="cpu")
for name, k in KERNELS.items():
    print(f"{name}: {timed_launch(k, img.shape, [img]) * 1e3:.2f} ms")
