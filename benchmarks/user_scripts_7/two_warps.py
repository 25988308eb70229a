import warp
import warp as wp
from warp import float32 as f32
from warp import vec3 as V3

import numpy as np

Vec4 = warp.types.vector(length=4, dtype=f32)


@warp.kernel
def mixed_prefixes(p: wp.array(dtype=V3), s: warp.array(dtype=f32)):
    i = warp.tid()
    v = p[i]
    s[i] = wp.dot(v, warp.vec3(1.0, 1.0, 1.0)) + f32(0.5)


@wp.kernel
def widen(a: warp.array(dtype=warp.float32), b: wp.array(dtype=Vec4)):
    i = wp.tid()
    b[i] = Vec4(a[i], a[i], warp.float32(0.0), f32(1.0))


p = wp.array(np.ones((4, 3), dtype=np.float32), dtype=V3)
s = warp.zeros(4, dtype=f32)
warp.launch(mixed_prefixes, dim=4, inputs=[p, s])
b = wp.zeros(4, dtype=Vec4)
wp.launch(widen, dim=4, inputs=[s, b])
print(b.numpy()[0])
