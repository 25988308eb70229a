import numpy as np
import warp as wp


@wp.kernel
def noop():
    pass


@wp.kernel
def only_doc(a: wp.array(dtype=float)):
    """Placeholder until the real solver lands."""


@wp.kernel
def many_args(
    a0: float, a1: float, a2: float, a3: float, a4: float, a5: float, a6: float, a7: float,
    b0: int, b1: int, b2: int, b3: int,
    v0: wp.vec3, v1: wp.vec3, q: wp.quat, m: wp.mat33,
    out: wp.array(dtype=float),
):
    out[0] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7
    out[1] = float(b0 + b1 + b2 + b3)
    out[2] = wp.dot(v0, v1) + q[3] + wp.trace(m)


wp.launch(noop, dim=1)
a = wp.zeros(2, dtype=float)
wp.launch(only_doc, dim=2, inputs=[a])
out = wp.zeros(3, dtype=float)
wp.launch(
    many_args,
    dim=1,
    inputs=[*([1.0] * 8), 1, 2, 3, 4, wp.vec3(1.0), wp.vec3(2.0), wp.quat_identity(), wp.mat33(np.eye(3, dtype=np.float32)), out],
)
print(out.numpy(), np.sum(a.numpy()))
