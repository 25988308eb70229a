# kernels named like Python builtins, next to a helper that shadows a Warp builtin
import numpy as np
import warp as wp


@wp.func
def clamp(x: float):
    return wp.min(wp.max(x, -1.0), 1.0)


@wp.kernel
def sum(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    wp.atomic_add(out, 0, clamp(a[wp.tid()]))


@wp.kernel
def filter(a: wp.array(dtype=float), lo: float, hi: float):
    i = wp.tid()
    a[i] = wp.clamp(a[i], lo, hi) + clamp(0.0)


a = wp.array(np.linspace(-3, 3, 13, dtype=np.float32))
out = wp.zeros(1, dtype=float)
wp.launch(sum, dim=13, inputs=[a, out])
wp.launch(filter, dim=13, inputs=[a, -2.0, 2.0])
print(out.numpy(), a.numpy()[:2])
