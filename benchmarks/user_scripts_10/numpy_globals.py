import numpy as np
import warp as wp

W = np.array([1.0, 4.0, 6.0, 4.0, 1.0])
W /= W.sum()
FIT = np.polyfit([0.0, 1.0, 2.0], [1.0, 3.0, 7.0], 2)
HALF = len(W) // 2


@wp.kernel
def binomial_blur(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    n = a.shape[0]
    acc = float(0.0)
    for k in range(wp.static(len(W))):
        j = wp.clamp(i + k - wp.static(HALF), 0, n - 1)
        acc += wp.static(float(W[k])) * a[j]
    out[i] = acc


@wp.kernel
def fitted_curve(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    t = x[i]
    y[i] = wp.static(float(FIT[0])) * t * t + wp.static(float(FIT[1])) * t + wp.static(float(FIT[2]))


a = wp.array(np.arange(8, dtype=np.float32))
o = wp.zeros(8, dtype=float)
wp.launch(binomial_blur, dim=8, inputs=[a, o])
wp.launch(fitted_curve, dim=8, inputs=[a, o])
print(o.numpy()[:3])
