import warp as wp
import numpy as np

wp.set_module_options({"enable_backward": False, "fast_math": True})


@wp.kernel
def reduce_sum(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(out, 0, a[i])


@wp.kernel
def clamp_all(a: wp.array(dtype=float), lo: float, hi: float):
    i = wp.tid()
    a[i] = wp.clamp(a[i], lo, hi)


@wp.kernel(enable_backward=False)
def prefix_naive(a: wp.array(dtype=int), out: wp.array(dtype=int)):
    i = wp.tid()
    s = int(0)
    for j in range(i + 1):
        s += a[j]
    out[i] = s


@wp.kernel(module="unique")
def rgb_to_gray(img: wp.array2d(dtype=wp.vec3), gray: wp.array2d(dtype=float)):
    i, j = wp.tid()
    c = img[i, j]
    gray[i, j] = 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


a = wp.array(np.random.rand(100).astype(np.float32))
out = wp.zeros(1, dtype=float)
wp.launch(reduce_sum, dim=100, inputs=[a, out])
print(out)
