import functools

import warp as wp


class Grid:
    def __init__(self, n, length):
        self.n = n
        self.length = length

    @functools.cached_property
    def dx(self):
        return self.length / self.n


class Sim:
    def __init__(self):
        self.grid = Grid(8, 1.0)
        self.kappa = 0.1


GRID = Grid(16, 2.0)
SIM = Sim()


@wp.kernel
def laplace_cached(u: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    n = u.shape[0]
    if i > 0 and i < n - 1:
        out[i] = (u[i - 1] - 2.0 * u[i] + u[i + 1]) * wp.static(1.0 / (GRID.dx * GRID.dx))


@wp.kernel
def spacing_chain(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = float(i) * wp.static(SIM.grid.dx) * wp.static(SIM.kappa)


if __name__ == "__main__":
    u = wp.full(16, 1.0, dtype=float)
    out = wp.zeros(16, dtype=float)
    wp.launch(laplace_cached, dim=16, inputs=[u, out])
    x = wp.zeros(8, dtype=float)
    wp.launch(spacing_chain, dim=8, inputs=[x])
    print(out.numpy()[:3], x.numpy())
