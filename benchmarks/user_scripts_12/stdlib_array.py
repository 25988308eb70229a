import array
from collections import deque

import warp as wp

TAPS = array.array("d", [0.25, 0.5, 0.25])
HISTORY = deque([0.1, 0.2, 0.3], maxlen=3)
HISTORY.append(0.4)


@wp.kernel
def fir_stdlib(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    n = a.shape[0]
    s = float(0.0)
    for k in range(wp.static(len(TAPS))):
        s += wp.static(TAPS[k]) * a[(i + k) % n]
    out[i] = s


@wp.kernel
def deque_weights(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = a[i] * wp.static(HISTORY[0]) + wp.static(HISTORY[-1])


if __name__ == "__main__":
    a = wp.ones(8, dtype=float)
    out = wp.zeros(8, dtype=float)
    wp.launch(fir_stdlib, dim=8, inputs=[a, out])
    wp.launch(deque_weights, dim=8, inputs=[out])
    print(out.numpy())
