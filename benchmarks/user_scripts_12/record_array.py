import numpy as np

import warp as wp

MATERIALS = np.array(
    [(1.0e4, 0.30, 1000.0), (5.0e5, 0.45, 1200.0)],
    dtype=[("E", "f8"), ("nu", "f8"), ("rho", "f8")],
)
STEEL = MATERIALS[1]
EPS = np.float32(1e-6)
N_ITERS = np.int64(3)


@wp.kernel
def lame_from_record(strain: wp.array(dtype=float), stress: wp.array(dtype=float)):
    i = wp.tid()
    E = wp.static(float(STEEL["E"]))
    nu = wp.static(float(MATERIALS["nu"][1]))
    mu = E / (2.0 * (1.0 + nu))
    stress[i] = 2.0 * mu * strain[i]


@wp.kernel
def newton_recip(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = float(1.0)
    for _ in range(wp.static(int(N_ITERS))):
        x = x * (2.0 - a[i] * x)
    out[i] = x / (a[i] + wp.static(float(EPS)))


if __name__ == "__main__":
    s = wp.full(4, 0.01, dtype=float)
    o = wp.zeros(4, dtype=float)
    wp.launch(lame_from_record, dim=4, inputs=[s, o])
    wp.launch(newton_recip, dim=4, inputs=[wp.full(4, 0.9, dtype=float), o])
    print(o.numpy())
