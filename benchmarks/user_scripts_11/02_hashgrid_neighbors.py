import numpy as np
import warp as wp

RADIUS = 0.2


@wp.kernel
def count_neighbors(grid: wp.uint64, points: wp.array(dtype=wp.vec3), counts: wp.array(dtype=int)):
    tid = wp.tid()
    i = wp.hash_grid_point_id(grid, tid)
    p = points[i]
    n = int(0)
    for j in wp.hash_grid_query(grid, p, RADIUS):
        if wp.length(points[j] - p) <= RADIUS:
            n += 1
    counts[i] = n


def main():
    pts = wp.array(np.random.default_rng(1).random((64, 3)), dtype=wp.vec3)
    grid = wp.HashGrid(8, 8, 8)
    grid.build(pts, RADIUS)
    counts = wp.zeros(64, dtype=int)
    wp.launch(count_neighbors, dim=64, inputs=[grid.id, pts, counts])
    print(counts.numpy().mean())


if __name__ == "__main__":
    main()
