import numpy as np
import warp as wp

# 3-point Gauss-Legendre rule on [-1, 1] and a Hann window for smoothing
NODES, WEIGHTS = np.polynomial.legendre.leggauss(3)
WINDOW = np.hanning(5)[1:-1]
WINDOW = WINDOW / WINDOW.sum()


@wp.kernel
def gauss_quad(a: wp.array(dtype=float), b: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    half = 0.5 * (b[i] - a[i])
    mid = 0.5 * (b[i] + a[i])
    s = float(0.0)
    for q in range(wp.static(len(NODES))):
        t = mid + half * wp.static(float(NODES[q]))
        s += wp.static(float(WEIGHTS[q])) * wp.exp(-t * t)
    out[i] = half * s


@wp.kernel
def hann_smooth(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    n = x.shape[0]
    acc = float(0.0)
    for k in range(wp.static(WINDOW.shape[0])):
        j = wp.clamp(i + k - 1, 0, n - 1)
        acc += wp.static(float(WINDOW[k])) * x[j]
    y[i] = acc


if __name__ == "__main__":
    a = wp.zeros(2, dtype=float)
    b = wp.ones(2, dtype=float)
    out = wp.zeros(2, dtype=float)
    wp.launch(gauss_quad, dim=2, inputs=[a, b, out])
    y = wp.zeros(2, dtype=float)
    wp.launch(hann_smooth, dim=2, inputs=[out, y])
    print(out.numpy(), y.numpy())
