"""Constants kept as numpy scalars and arrays, as they come out of a numpy prototype."""
import numpy as np
import warp as wp

DT = wp.constant(wp.float32(np.float32(0.01)))
DAMPING = wp.constant(float(np.float64(0.98)))
STEPS = wp.constant(int(np.int32(3)))
WEIGHTS = np.array([0.25, 0.5, 0.25], dtype=np.float32)


@wp.kernel
def damped_step(x: wp.array(dtype=float), v: wp.array(dtype=float)):
    i = wp.tid()
    for _ in range(STEPS):
        v[i] = v[i] * DAMPING - x[i] * DT
        x[i] = x[i] + v[i] * DT


@wp.kernel
def smooth3(src: wp.array(dtype=float), dst: wp.array(dtype=float)):
    i = wp.tid()
    n = src.shape[0]
    a = src[wp.max(i - 1, 0)]
    b = src[i]
    c = src[wp.min(i + 1, n - 1)]
    dst[i] = wp.static(float(WEIGHTS[0])) * a + wp.static(float(WEIGHTS[1])) * b + wp.static(float(WEIGHTS[2])) * c


x = wp.array(np.ones(32, dtype=np.float32))
v = wp.zeros(32, dtype=float)
wp.launch(damped_step, dim=32, inputs=[x, v])
y = wp.zeros_like(x)
wp.launch(smooth3, dim=32, inputs=[x, y])
print(y.numpy()[:3])
