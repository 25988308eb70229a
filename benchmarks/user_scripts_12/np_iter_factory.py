import numpy as np

import warp as wp


def make_mix(t: float):
    @wp.kernel
    def mix_t(a: wp.array(dtype=float), b: wp.array(dtype=float), out: wp.array(dtype=float)):
        i = wp.tid()
        out[i] = (1.0 - t) * a[i] + t * b[i]

    return mix_t


def make_pow(n: int):
    @wp.kernel
    def pow_int(a: wp.array(dtype=float)):
        i = wp.tid()
        x = a[i]
        r = float(1.0)
        for _ in range(n):
            r = r * x
        a[i] = r

    return pow_int


MIXERS = [make_mix(float(t)) for t in np.linspace(0.0, 1.0, 3)]

if __name__ == "__main__":
    a = wp.zeros(4, dtype=float)
    b = wp.ones(4, dtype=float)
    out = wp.zeros(4, dtype=float)
    for k in MIXERS:
        wp.launch(k, dim=4, inputs=[a, b, out])
    for n in np.arange(2, 4):
        wp.launch(make_pow(int(n)), dim=4, inputs=[out])
    print(out.numpy())
