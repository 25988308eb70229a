import numpy as np
import warp as wp

wp.init()


@wp.kernel
def count_neighbours(grid: wp.uint64, pts: wp.array(dtype=wp.vec3), radius: float, counts: wp.array(dtype=int)):
    tid = wp.tid()
    i = wp.hash_grid_point_id(grid, tid)
    p = pts[i]
    n = int(0)
    query = wp.hash_grid_query(grid, p, radius)
    index = int(0)
    while wp.hash_grid_query_next(query, index):
        if wp.length(pts[index] - p) <= radius:
            n += 1
    counts[i] = n


@wp.kernel
def mesh_closest(mesh: wp.uint64, pts: wp.array(dtype=wp.vec3), dist: wp.array(dtype=float)):
    i = wp.tid()
    q = wp.mesh_query_point_no_sign(mesh, pts[i], 10.0)
    if q.result:
        cp = wp.mesh_eval_position(mesh, q.face, q.u, q.v)
        dist[i] = wp.length(cp - pts[i])


rng = np.random.default_rng(0)
pts = wp.array(rng.random((64, 3)).astype(np.float32), dtype=wp.vec3, device="cpu")
grid = wp.HashGrid(8, 8, 8, device="cpu")
grid.build(pts, 0.2)
counts = wp.zeros(64, dtype=int, device="cpu")
wp.launch(count_neighbours, dim=64, inputs=[grid.id, pts, 0.2, counts], device="cpu")
verts = wp.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], dtype=wp.vec3, device="cpu")
tris = wp.array([0, 1, 2], dtype=int, device="cpu")
mesh = wp.Mesh(points=verts, indices=tris)
dist = wp.zeros(64, dtype=float, device="cpu")
wp.launch(mesh_closest, dim=64, inputs=[mesh.id, pts, dist], device="cpu")
print(counts.numpy().mean(), dist.numpy().mean())
