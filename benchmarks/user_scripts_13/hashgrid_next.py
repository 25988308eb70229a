import numpy as np
import warp as wp

wp.set_device("cpu")


@wp.kernel
def neighbor_sum_next(
    grid: wp.uint64,
    pts: wp.array(dtype=wp.vec3),
    w: wp.array(dtype=float),
    out: wp.array(dtype=float),
    radius: float,
):
    tid = wp.tid()
    i = wp.hash_grid_point_id(grid, tid)
    p = pts[i]
    query = wp.hash_grid_query(grid, p, radius)
    index = int(0)
    s = float(0.0)
    while wp.hash_grid_query_next(query, index):
        if wp.length(pts[index] - p) <= radius:
            s += w[index]
    out[i] = s


@wp.kernel
def surface_velocity(
    mesh: wp.uint64,
    pts: wp.array(dtype=wp.vec3),
    max_dist: float,
    vel: wp.array(dtype=wp.vec3),
):
    i = wp.tid()
    q = wp.mesh_query_point_no_sign(mesh, pts[i], max_dist)
    if q.result:
        vel[i] = wp.mesh_eval_velocity(mesh, q.face, q.u, q.v)
    else:
        vel[i] = wp.vec3(0.0)


def main():
    rng = np.random.default_rng(3)
    pts = wp.array(rng.random((64, 3)).astype(np.float32), dtype=wp.vec3)
    w = wp.ones(64, dtype=float)
    out = wp.zeros(64, dtype=float)
    grid = wp.HashGrid(8, 8, 8)
    grid.build(pts, 0.2)
    wp.launch(neighbor_sum_next, dim=64, inputs=[grid.id, pts, w, out, 0.2])

    verts = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]], dtype=np.float32)
    tris = np.array([0, 1, 2, 1, 3, 2], dtype=np.int32)
    velocities = np.tile(np.array([[0.0, 0.0, 1.0]], dtype=np.float32), (4, 1))
    mesh = wp.Mesh(
        points=wp.array(verts, dtype=wp.vec3),
        indices=wp.array(tris, dtype=int),
        velocities=wp.array(velocities, dtype=wp.vec3),
    )
    vel = wp.zeros(64, dtype=wp.vec3)
    wp.launch(surface_velocity, dim=64, inputs=[mesh.id, pts, 0.5, vel])
    print(out.numpy().max(), vel.numpy()[0])


if __name__ == "__main__":
    main()
