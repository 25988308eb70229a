"""Spatial queries done inside wp.func helpers that take the structure's id."""

import numpy as np
import warp as wp


@wp.func
def neighbor_density(grid: wp.uint64, points: wp.array(dtype=wp.vec3), p: wp.vec3, radius: float) -> float:
    rho = float(0.0)
    for j in wp.hash_grid_query(grid, p, radius):
        d = wp.length(points[j] - p)
        if d < radius:
            rho += (radius - d) * (radius - d)
    return rho


@wp.func
def count_overlaps(bvh: wp.uint64, lo: wp.vec3, hi: wp.vec3) -> int:
    q = wp.bvh_query_aabb(bvh, lo, hi)
    n = int(0)
    b = int(0)
    while wp.bvh_query_next(q, b):
        n += 1
    return n


@wp.kernel
def density_func(grid: wp.uint64, points: wp.array(dtype=wp.vec3), radius: float, rho: wp.array(dtype=float)):
    i = wp.tid()
    rho[i] = neighbor_density(grid, points, points[i], radius)


@wp.kernel
def count_boxes_func(bvh: wp.uint64, centers: wp.array(dtype=wp.vec3), half: float, counts: wp.array(dtype=int)):
    i = wp.tid()
    h = wp.vec3(half, half, half)
    counts[i] = count_overlaps(bvh, centers[i] - h, centers[i] + h)


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    pts_np = rng.random((64, 3)).astype(np.float32)
    points = wp.array(pts_np, dtype=wp.vec3)
    grid = wp.HashGrid(4, 4, 4)
    grid.build(points, 0.2)
    rho = wp.zeros(64, dtype=float)
    wp.launch(density_func, dim=64, inputs=[grid.id, points, 0.2, rho])
    lowers = wp.array(pts_np - 0.05, dtype=wp.vec3)
    uppers = wp.array(pts_np + 0.05, dtype=wp.vec3)
    bvh = wp.Bvh(lowers, uppers)
    counts = wp.zeros(64, dtype=int)
    wp.launch(count_boxes_func, dim=64, inputs=[bvh.id, points, 0.1, counts])
    print(rho.numpy()[:4], counts.numpy()[:4])
