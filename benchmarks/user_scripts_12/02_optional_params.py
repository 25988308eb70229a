from __future__ import annotations

import warp as wp

DEFAULT_GAIN = 1.5


def make_gain(gain: float | None = None, dtype=None):
    if dtype is None:
        dtype = wp.float32
    gain = DEFAULT_GAIN if gain is None else gain

    @wp.kernel
    def apply_gain(a: wp.array(dtype=dtype)):
        i = wp.tid()
        a[i] = a[i] * dtype(gain)

    return apply_gain


def make_window(width=None):
    if not width:
        width = 3
    half = width // 2

    @wp.kernel
    def window_mean(a: wp.array(dtype=float), out: wp.array(dtype=float)):
        i = wp.tid()
        s = float(0.0)
        for k in range(-half, half + 1):
            j = wp.clamp(i + k, 0, a.shape[0] - 1)
            s += a[j]
        out[i] = s / float(2 * half + 1)

    return window_mean


gain_default = make_gain()

if __name__ == "__main__":
    a = wp.ones(16, dtype=float)
    wp.launch(gain_default, dim=16, inputs=[a])
    d = wp.ones(16, dtype=wp.float64)
    wp.launch(make_gain(2.0, wp.float64), dim=16, inputs=[d])
    out = wp.zeros(16, dtype=float)
    wp.launch(make_window(), dim=16, inputs=[a, out])
    wp.launch(make_window(5), dim=16, inputs=[a, out])
    print(out.numpy()[:3], d.numpy()[:3])
