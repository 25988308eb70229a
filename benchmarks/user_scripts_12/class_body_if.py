import os

import warp as wp

USE_RK2 = os.environ.get("USE_RK2", "0") == "1"


class Integrator:
    if USE_RK2:

        @wp.kernel
        def step(x: wp.array(dtype=float), v: wp.array(dtype=float), dt: float):
            i = wp.tid()
            xm = x[i] + 0.5 * dt * v[i]
            x[i] = x[i] + dt * (v[i] - 0.5 * dt * xm)

    else:

        @wp.kernel
        def step(x: wp.array(dtype=float), v: wp.array(dtype=float), dt: float):
            i = wp.tid()
            x[i] = x[i] + dt * v[i]

    try:
        import scipy  # noqa: F401

        HAVE_SCIPY = True
    except ImportError:
        HAVE_SCIPY = False

    def run(self, n=8):
        x = wp.zeros(n, dtype=float)
        v = wp.ones(n, dtype=float)
        wp.launch(self.step, dim=n, inputs=[x, v, 0.1])
        return x.numpy()


if __name__ == "__main__":
    print(Integrator().run())
