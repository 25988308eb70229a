import functools

import warp as wp


class Grid:
    def __init__(self, n: int, length: float):
        self.n = n
        self.length = length

    @property
    def dx(self) -> float:
        return self.length / (self.n - 1)

    @functools.cached_property
    def inv_dx2(self) -> float:
        return 1.0 / (self.dx * self.dx)


def make_laplace(inv_h2: float):
    @wp.kernel
    def laplace_prop(u: wp.array(dtype=float), out: wp.array(dtype=float)):
        i = wp.tid()
        n = u.shape[0]
        if i > 0 and i < n - 1:
            out[i] = (u[i - 1] - 2.0 * u[i] + u[i + 1]) * inv_h2

    return laplace_prop


def make_coords(h: float):
    @wp.kernel
    def coords_prop(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = float(i) * h

    return coords_prop


def main():
    grid = Grid(n=9, length=2.0)
    lap = make_laplace(grid.inv_dx2)
    coords = make_coords(grid.dx)
    u = wp.zeros(grid.n, dtype=float)
    out = wp.zeros(grid.n, dtype=float)
    wp.launch(coords, dim=grid.n, inputs=[u])
    wp.launch(lap, dim=grid.n, inputs=[u, out])
    print(out.numpy())


if __name__ == "__main__":
    main()
