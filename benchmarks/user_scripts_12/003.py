import math

import warp as wp


def gauss_weights(radius: int, sigma: float = 1.0) -> tuple:
    w = [math.exp(-0.5 * (k / sigma) ** 2) for k in range(-radius, radius + 1)]
    total = sum(w)
    return tuple(x / total for x in w)


def cfl_dt(dx: float, speed: float, cfl: float = 0.5) -> float:
    return cfl * dx / speed


def make_blur(weights):
    r = len(weights) // 2

    @wp.kernel
    def blur_taps(a: wp.array(dtype=float), out: wp.array(dtype=float)):
        i = wp.tid()
        s = float(0.0)
        for k in range(wp.static(len(weights))):
            j = wp.clamp(i + k - r, 0, a.shape[0] - 1)
            s += wp.static(weights[k]) * a[j]
        out[i] = s

    return blur_taps


def make_advect(dt: float, dx: float):
    @wp.kernel
    def upwind(u: wp.array(dtype=float), c: float, out: wp.array(dtype=float)):
        i = wp.tid()
        im = wp.max(i - 1, 0)
        out[i] = u[i] - c * dt / dx * (u[i] - u[im])

    return upwind


def main():
    a = wp.array([float(i % 3) for i in range(32)], dtype=float)
    out = wp.zeros(32, dtype=float)
    wp.launch(make_blur(gauss_weights(2)), dim=32, inputs=[a, out])
    dx = 1.0 / 32
    wp.launch(make_advect(cfl_dt(dx, 2.0), dx), dim=32, inputs=[a, 2.0, out])
    print(out.numpy()[:4])


if __name__ == "__main__":
    main()
