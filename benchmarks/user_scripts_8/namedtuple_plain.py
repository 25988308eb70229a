from collections import namedtuple

import numpy as np
import warp as wp

SpringParams = namedtuple("SpringParams", ["k", "damping", "rest"])
PARAMS = SpringParams(k=40.0, damping=0.5, rest=1.0)

# channels that get written back; the others are left alone
ACTIVE = frozenset({0, 2})


@wp.kernel
def damped_spring(x: wp.array(dtype=float), v: wp.array(dtype=float), f: wp.array(dtype=float)):
    i = wp.tid()
    stretch = x[i] - wp.static(PARAMS.rest)
    f[i] = -wp.static(PARAMS.k) * stretch - wp.static(PARAMS.damping) * v[i]


@wp.kernel
def masked_channels(src: wp.array(dtype=wp.vec4), dst: wp.array(dtype=wp.vec4)):
    i = wp.tid()
    out = dst[i]
    for c in range(wp.static(4)):
        if wp.static(c in ACTIVE):
            out[c] = src[i][c]
    dst[i] = out


n = 10
x = wp.array(np.linspace(0.5, 1.5, n, dtype=np.float32))
v = wp.zeros(n, dtype=float)
f = wp.zeros(n, dtype=float)
wp.launch(damped_spring, dim=n, inputs=[x, v, f])
src = wp.array(np.ones((n, 4), dtype=np.float32), dtype=wp.vec4)
dst = wp.zeros(n, dtype=wp.vec4)
wp.launch(masked_channels, dim=n, inputs=[src, dst])
print(f.numpy()[:3], dst.numpy()[0])
