import numpy as np
import warp as wp


def make_blend(alpha):
    @wp.kernel
    def blend(a: wp.array(dtype=float), b: wp.array(dtype=float), out: wp.array(dtype=float)):
        i = wp.tid()
        out[i] = a[i] * (1.0 - alpha) + b[i] * alpha

    return blend


def make_roll(shift):
    @wp.kernel
    def roll(a: wp.array(dtype=float), out: wp.array(dtype=float)):
        i = wp.tid()
        n = a.shape[0]
        out[(i + shift) % n] = a[i]

    return roll


n = 8
a = wp.array(np.arange(n, dtype=np.float32))
b = wp.ones(n, dtype=float)
out = wp.zeros(n, dtype=float)
# Warp refuses numpy scalars in closures; Warp's own scalar types are fine
for alpha in np.linspace(0.1, 0.5, 3):
    wp.launch(make_blend(wp.float32(alpha)), dim=n, inputs=[a, b, out])
for s in np.arange(1, 3):
    wp.launch(make_roll(wp.int32(s)), dim=n, inputs=[a, out])
print(out.numpy())
