from typing import TypeAlias

import numpy as np
import warp as wp

FloatArray: TypeAlias = wp.array(dtype=float)
Vec3Array: TypeAlias = wp.array(dtype=wp.vec3)


@wp.kernel
def lengths(p: Vec3Array, out: FloatArray):
    i = wp.tid()
    out[i] = wp.length(p[i])


@wp.kernel
def scale_quoted(p: "wp.array(dtype=wp.vec3)", s: "float"):
    i = wp.tid()
    p[i] = p[i] * s


p = wp.array(np.ones((5, 3), dtype=np.float32), dtype=wp.vec3)
wp.launch(scale_quoted, dim=5, inputs=[p, 2.0])
out = wp.zeros(5, dtype=float)
wp.launch(lengths, dim=5, inputs=[p, out])
print(out.numpy())
