import numpy as np
import warp as wp


def make_fir(coeffs):
    taps = len(coeffs)

    @wp.kernel
    def fir(x: wp.array(dtype=float), y: wp.array(dtype=float)):
        i = wp.tid()
        s = float(0.0)
        for k in range(wp.static(taps)):
            j = wp.max(i - k, 0)
            s += wp.static(coeffs[k]) * x[j]
        y[i] = s

    return fir


M = np.linalg.inv(np.array([[2.0, 0.0, 0.0], [0.0, 4.0, 0.0], [0.0, 0.0, 8.0]]))


def make_transform(m: np.ndarray):
    mat = wp.mat33(*m.astype(np.float32).flatten())

    @wp.kernel
    def transform(p: wp.array(dtype=wp.vec3)):
        i = wp.tid()
        p[i] = mat @ p[i]

    return transform


x = wp.array(np.ones(16, dtype=np.float32))
y = wp.zeros_like(x)
wp.launch(make_fir([0.5, 0.3, 0.2]), dim=16, inputs=[x, y])
wp.launch(make_fir([1.0, -1.0]), dim=16, inputs=[x, y])
p = wp.array(np.ones((2, 3), dtype=np.float32), dtype=wp.vec3)
wp.launch(make_transform(M), dim=2, inputs=[p])
print(y.numpy()[:3], p.numpy()[0])
