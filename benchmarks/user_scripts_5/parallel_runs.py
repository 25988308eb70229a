# parameter sweep in worker processes; each worker launches the kernel on the CPU
import multiprocessing as mp

import numpy as np
import warp as wp


@wp.kernel
def damped_oscillator(x: wp.array(dtype=float), v: wp.array(dtype=float), k: float, c: float, dt: float):
    i = wp.tid()
    a = -k * x[i] - c * v[i]
    v[i] = v[i] + a * dt
    x[i] = x[i] + v[i] * dt


def run(params):
    k, c = params
    x = wp.full(1, 1.0, dtype=float, device="cpu")
    v = wp.zeros(1, dtype=float, device="cpu")
    for _ in range(200):
        wp.launch(damped_oscillator, dim=1, inputs=[x, v, k, c, 0.01], device="cpu")
    return float(x.numpy()[0])


if __name__ == "__main__":
    sweep = [(k, c) for k in (1.0, 4.0) for c in (0.1, 0.5)]
    with mp.get_context("spawn").Pool(2) as pool:
        results = pool.map(run, sweep)
    print(np.round(results, 3))
