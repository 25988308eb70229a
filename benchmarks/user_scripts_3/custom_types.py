import numpy as np
import warp as wp


class vec6(wp.types.vector(length=6, dtype=wp.float32)):
    pass


mat22d = wp.types.matrix(shape=(2, 2), dtype=wp.float64)


@wp.kernel
def vec6_norms(v: wp.array(dtype=vec6), out: wp.array(dtype=wp.float32)):
    i = wp.tid()
    out[i] = wp.length(v[i])


@wp.kernel
def det2(m: wp.array(dtype=mat22d), out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    out[i] = wp.determinant(m[i])


@wp.kernel
def half_scale(a: wp.array(dtype=wp.float16), s: wp.float16):
    i = wp.tid()
    a[i] = a[i] * s


v = wp.array(np.ones((3, 6), dtype=np.float32), dtype=vec6, device="cpu")
o = wp.zeros(3, dtype=wp.float32, device="cpu")
wp.launch(vec6_norms, dim=3, inputs=[v, o], device="cpu")
m = wp.array(np.eye(2)[None].repeat(2, 0), dtype=mat22d, device="cpu")
d = wp.zeros(2, dtype=wp.float64, device="cpu")
wp.launch(det2, dim=2, inputs=[m, d], device="cpu")
h = wp.ones(4, dtype=wp.float16, device="cpu")
wp.launch(half_scale, dim=4, inputs=[h, wp.float16(0.5)], device="cpu")
print(o.numpy(), d.numpy(), h.numpy())
