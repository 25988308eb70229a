"""A settings class whose values are @property computed from fields, read with wp.static(cfg.dx)."""

import numpy as np
import warp as wp


class Grid:
    def __init__(self, length, cells):
        self.length = length
        self.cells = cells

    @property
    def dx(self):
        return self.length / self.cells

    @property
    def inv_dx2(self):
        return 1.0 / (self.dx * self.dx)


GRID = Grid(2.0, 16)


@wp.kernel
def laplace_1d(u: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    n = u.shape[0]
    l = u[wp.max(i - 1, 0)]
    r = u[wp.min(i + 1, n - 1)]
    out[i] = (l - 2.0 * u[i] + r) * wp.static(GRID.inv_dx2)


@wp.kernel
def cell_centers(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = (float(i) + 0.5) * wp.static(GRID.dx)


u = wp.zeros(GRID.cells, dtype=float)
wp.launch(cell_centers, dim=GRID.cells, inputs=[u])
out = wp.zeros(GRID.cells, dtype=float)
wp.launch(laplace_1d, dim=GRID.cells, inputs=[u, out])
print(u.numpy()[:3], out.numpy()[:3])
