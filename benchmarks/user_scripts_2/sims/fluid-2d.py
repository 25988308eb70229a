# semi-lagrangian advection on a 2d grid
import os
import sys

import warp as wp

sys.path.append(os.path.join(os.path.dirname(__file__), ".."))

from helpers import Grid2D, bilerp, idx  # noqa: E402
from utils import helper_func  # noqa: E402


@wp.kernel
def advect_scalar(
    g: Grid2D, u: wp.array(dtype=float), v: wp.array(dtype=float), f: wp.array(dtype=float), f_new: wp.array(dtype=float), dt: float
):
    i, j = wp.tid()
    k = idx(g, i, j)
    p = wp.vec2(float(i) * g.h, float(j) * g.h)
    back = p - wp.vec2(u[k], v[k]) * dt
    f_new[k] = bilerp(f, g, back)


@wp.kernel
def divergence(g: Grid2D, u: wp.array(dtype=float), v: wp.array(dtype=float), div: wp.array(dtype=float)):
    i, j = wp.tid()
    du = u[idx(g, i + 1, j)] - u[idx(g, i - 1, j)]
    dv = v[idx(g, i, j + 1)] - v[idx(g, i, j - 1)]
    div[idx(g, i, j)] = helper_func(0.5 / g.h, du + dv)


@wp.kernel
def pressure_jacobi(g: Grid2D, div: wp.array(dtype=float), p: wp.array(dtype=float), p_new: wp.array(dtype=float)):
    i, j = wp.tid()
    s = p[idx(g, i - 1, j)] + p[idx(g, i + 1, j)] + p[idx(g, i, j - 1)] + p[idx(g, i, j + 1)]
    p_new[idx(g, i, j)] = (s - div[idx(g, i, j)] * g.h * g.h) * 0.25


def main():
    g = Grid2D()
    g.nx = 128
    g.ny = 128
    g.h = 1.0 / 128.0
    n = g.nx * g.ny
    u = wp.zeros(n, dtype=float)
    v = wp.zeros(n, dtype=float)
    div = wp.zeros(n, dtype=float)
    wp.launch(divergence, dim=(g.nx, g.ny), inputs=[g, u, v, div])


if __name__ == "__main__":
    main()
