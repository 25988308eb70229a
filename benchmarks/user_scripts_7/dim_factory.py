import numpy as np
import warp as wp


def make_norms(n: int, dtype=wp.float32):
    VecN = wp.types.vector(length=n, dtype=dtype)

    @wp.func
    def sq_norm(v: VecN):
        return wp.dot(v, v)

    @wp.kernel
    def norms(a: wp.array(dtype=VecN), out: wp.array(dtype=dtype)):
        i = wp.tid()
        out[i] = wp.sqrt(sq_norm(a[i]))

    return norms, VecN


for n in (5, 7):
    kern, VecN = make_norms(n)
    a = wp.array(np.ones((3, n), dtype=np.float32), dtype=VecN)
    out = wp.zeros(3, dtype=wp.float32)
    wp.launch(kern, dim=3, inputs=[a, out])
    print(n, out.numpy())
