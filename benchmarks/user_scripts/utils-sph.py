import math

import warp as wp

SMOOTHING = 0.04


def make_poly6(h: float):
    coeff = 315.0 / (64.0 * math.pi * h**9)

    @wp.func
    def poly6(r2: float):
        if r2 >= h * h:
            return 0.0
        x = h * h - r2
        return coeff * x * x * x

    return poly6


def make_density_kernel(kernel_fn, mass: float = 0.01):
    @wp.kernel
    def density(
        grid: wp.uint64,
        x: wp.array(dtype=wp.vec3),
        rho: wp.array(dtype=float),
    ):
        tid = wp.tid()
        i = wp.hash_grid_point_id(grid, tid)
        p = x[i]
        total = float(0.0)
        for j in wp.hash_grid_query(grid, p, SMOOTHING):
            d = p - x[j]
            total += mass * kernel_fn(wp.dot(d, d))
        rho[i] = total

    return density


poly6 = make_poly6(SMOOTHING)
compute_density = make_density_kernel(poly6)
compute_density_heavy = make_density_kernel(poly6, mass=0.1)
