import numpy as np
import warp
import warp.types as wpt
from warp import array, float16, float32
from warp.types import matrix, vector

vec5 = vector(length=5, dtype=float32)
mat53 = matrix(shape=(5, 3), dtype=float32)


@warp.kernel
def project5(m: array(dtype=mat53), v: array(dtype=vec5), out: array(dtype=warp.vec3)):
    i = warp.tid()
    out[i] = warp.transpose(m[i]) @ v[i]


@warp.kernel
def to_half(src: array(dtype=float32), dst: array(dtype=float16), scale: wpt.vector(length=2, dtype=float32)):
    i = warp.tid()
    dst[i] = float16(src[i] * scale[0] + scale[1])


m = warp.array(np.ones((3, 5, 3), dtype=np.float32), dtype=mat53, device="cpu")
v = warp.array(np.ones((3, 5), dtype=np.float32), dtype=vec5, device="cpu")
out = warp.zeros(3, dtype=warp.vec3, device="cpu")
warp.launch(project5, dim=3, inputs=[m, v, out], device="cpu")
h = warp.zeros(3, dtype=warp.float16, device="cpu")
warp.launch(
    to_half,
    dim=3,
    inputs=[warp.array([1.5, 2.5, 3.5], dtype=float, device="cpu"), h, wpt.vector(length=2, dtype=float32)(2.0, 0.0)],
    device="cpu",
)
print(out.numpy()[0], h.numpy())
