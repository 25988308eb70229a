import numpy as np
import warp as wp


@wp.kernel
def closest_points(mesh: wp.uint64, queries: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec3), max_dist: float):
    tid = wp.tid()
    q = wp.mesh_query_point(mesh, queries[tid], max_dist)
    if q.result:
        out[tid] = wp.mesh_eval_position(mesh, q.face, q.u, q.v)


@wp.kernel
def raycast(mesh: wp.uint64, origins: wp.array(dtype=wp.vec3), dirs: wp.array(dtype=wp.vec3), t: wp.array(dtype=float)):
    tid = wp.tid()
    hit = wp.mesh_query_ray(mesh, origins[tid], dirs[tid], 1.0e6)
    if hit.result:
        t[tid] = hit.t
    else:
        t[tid] = -1.0


@wp.kernel
def count_overlaps(bvh: wp.uint64, lowers: wp.array(dtype=wp.vec3), uppers: wp.array(dtype=wp.vec3), counts: wp.array(dtype=int)):
    tid = wp.tid()
    query = wp.bvh_query_aabb(bvh, lowers[tid], uppers[tid])
    idx = int(0)
    n = int(0)
    while wp.bvh_query_next(query, idx):
        n += 1
    counts[tid] = n


@wp.kernel
def sample_volume(volume: wp.uint64, pts: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    tid = wp.tid()
    uvw = wp.volume_world_to_index(volume, pts[tid])
    out[tid] = wp.volume_sample(volume, uvw, wp.Volume.LINEAR, dtype=float)


if __name__ == "__main__":
    verts = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], dtype=np.float32)
    mesh = wp.Mesh(points=wp.array(verts, dtype=wp.vec3), indices=wp.array([0, 1, 2], dtype=int))
    q = wp.array([[0.2, 0.2, 1.0]], dtype=wp.vec3)
    out = wp.zeros_like(q)
    wp.launch(closest_points, dim=1, inputs=[mesh.id, q, out, 10.0])
