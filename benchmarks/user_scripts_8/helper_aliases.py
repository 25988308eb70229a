import numpy as np
import warp as wp
from mywarp import func, kernel, nograd, safe_inv


@func
def harmonic(a: float, b: float) -> float:
    return 2.0 * safe_inv(safe_inv(a) + safe_inv(b))


@kernel
def harmonic_pairs(a: wp.array(dtype=float), b: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = harmonic(a[i], b[i])


@nograd
def reciprocal(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = safe_inv(a[i])


a = wp.array(np.arange(1, 6, dtype=np.float32))
b = wp.array(np.arange(2, 7, dtype=np.float32))
out = wp.zeros(5, dtype=float)
wp.launch(harmonic_pairs, dim=5, inputs=[a, b, out])
wp.launch(reciprocal, dim=5, inputs=[out])
print(out.numpy())
