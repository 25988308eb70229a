# wp.static over module-level lists, dicts and functools.reduce results; static branches
import functools
import operator

import numpy as np
import warp as wp

COEFFS = [0.25, 0.5, 0.25]
MODES = {"clamp": 0, "wrap": 1}
MODE = "wrap"
NORM = functools.reduce(operator.add, COEFFS)
USE_FAST_PATH = True


@wp.kernel
def fir_filter(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    n = x.shape[0]
    acc = float(0.0)
    for k in range(wp.static(len(COEFFS))):
        j = i + k - wp.static(len(COEFFS) // 2)
        if wp.static(MODES[MODE] == 1):
            j = (j + n) % n
        else:
            j = wp.clamp(j, 0, n - 1)
        acc += wp.static(wp.vec3(*COEFFS))[k] * x[j]
    y[i] = acc / wp.static(NORM)


@wp.kernel
def branchless(x: wp.array(dtype=float)):
    i = wp.tid()
    if wp.static(USE_FAST_PATH):
        x[i] = wp.abs(x[i])
    else:
        if x[i] < 0.0:
            x[i] = -x[i]


x = wp.array(np.sin(np.linspace(0, 6, 16)).astype(np.float32))
y = wp.zeros_like(x)
wp.launch(fir_filter, dim=16, inputs=[x, y])
wp.launch(branchless, dim=16, inputs=[y])
print(y.numpy()[:4])
