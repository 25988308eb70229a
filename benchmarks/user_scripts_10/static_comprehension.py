import math

import warp as wp

ANGLES = [2.0 * math.pi * k / 6 for k in range(6)]
DIRS = [(math.cos(a), math.sin(a)) for a in ANGLES]
PAIRS = {(i, (i + 1) % 6): 0.5 for i in range(6)}


@wp.kernel
def hex_gradient(f: wp.array2d(dtype=float), g: wp.array2d(dtype=wp.vec2)):
    i, j = wp.tid()
    acc = wp.vec2()
    for k in range(wp.static(len(DIRS))):
        d = wp.vec2(wp.static(DIRS[k][0]), wp.static(DIRS[k][1]))
        acc += d * f[i, j]
    g[i, j] = acc


@wp.kernel
def ring_pairs(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    s = float(0.0)
    for p in range(wp.static(len(PAIRS))):
        s += wp.static(list(PAIRS.values())[p]) * (
            a[wp.static(list(PAIRS.keys())[p][0])] - a[wp.static(list(PAIRS.keys())[p][1])]
        )
    out[i] = s


f = wp.ones((3, 3), dtype=float)
g = wp.zeros((3, 3), dtype=wp.vec2)
wp.launch(hex_gradient, dim=(3, 3), inputs=[f, g])
a = wp.array([float(k) for k in range(6)], dtype=float)
out = wp.zeros(6, dtype=float)
wp.launch(ring_pairs, dim=6, inputs=[a, out])
print(g.numpy()[0, 0], out.numpy()[0])
