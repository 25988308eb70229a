# globals made by top-level statements other than plain assignments
import os

import numpy as np
import warp as wp

(N := 16)
SCALE = 1.0
if N > 8:
    SCALE *= 2.5
TOTAL = 0.0
for w in (0.25, 0.5, 0.25):
    TOTAL += w
try:
    DT = float(os.environ["MY_SIM_DT"])
except KeyError:
    DT = 0.02


@wp.kernel
def scaled_step(x: wp.array(dtype=float), v: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = x[i] + SCALE * DT * v[i]


@wp.kernel
def normalized_taps(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = a[i] / TOTAL


x = wp.zeros(N, dtype=float)
v = wp.ones(N, dtype=float)
wp.launch(scaled_step, dim=N, inputs=[x, v])
out = wp.zeros(N, dtype=float)
wp.launch(normalized_taps, dim=N, inputs=[x, out])
print(np.round(out.numpy()[:4], 3))
