import numpy as np
import warp as wp

import mathx as mx
from mathx import EPS as tiny
from mathx import clamp01 as c01
from mathx import length
from mathx import smoothstep as ss


@wp.kernel
def fade(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = c01(ss(0.0, 1.0, x[i]) + tiny) * mx.smoothstep(-1.0, 1.0, x[i])


@wp.kernel
def manhattan(p: wp.array(dtype=wp.vec2), d: wp.array(dtype=float)):
    i = wp.tid()
    d[i] = length(p[i]) - wp.length(p[i]) + mx.length(p[i]) * 0.0


x = wp.array(np.linspace(-1, 2, 12, dtype=np.float32))
y = wp.zeros_like(x)
wp.launch(fade, dim=12, inputs=[x, y])
p = wp.array(np.ones((3, 2), dtype=np.float32), dtype=wp.vec2)
d = wp.zeros(3, dtype=float)
wp.launch(manhattan, dim=3, inputs=[p, d])
print(y.numpy()[-1], d.numpy())
