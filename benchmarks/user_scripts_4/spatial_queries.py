import numpy as np
import warp as wp

wp.set_device("cpu")


@wp.kernel
def raycast_depth(mesh: wp.uint64, origins: wp.array(dtype=wp.vec3), dir: wp.vec3, depth: wp.array(dtype=float)):
    i = wp.tid()
    q = wp.mesh_query_ray(mesh, origins[i], dir, 1.0e6)
    if q.result:
        depth[i] = q.t
    else:
        depth[i] = -1.0


@wp.kernel
def inside_outside(mesh: wp.uint64, pts: wp.array(dtype=wp.vec3), sign: wp.array(dtype=float)):
    i = wp.tid()
    q = wp.mesh_query_point_sign_normal(mesh, pts[i], 10.0)
    if q.result:
        sign[i] = q.sign
    else:
        sign[i] = 0.0


@wp.kernel
def bvh_ray_hits(bvh: wp.uint64, start: wp.vec3, dir: wp.vec3, hits: wp.array(dtype=int)):
    tid = wp.tid()
    query = wp.bvh_query_ray(bvh, start + wp.vec3(0.0, float(tid) * 0.1, 0.0), dir)
    idx = int(0)
    while wp.bvh_query_next(query, idx):
        wp.atomic_add(hits, tid, 1)


@wp.kernel
def sample_density(vol: wp.uint64, pts: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    i = wp.tid()
    uvw = wp.volume_world_to_index(vol, pts[i])
    out[i] = wp.volume_sample(vol, uvw, wp.Volume.LINEAR, dtype=float)


# a unit cube as two triangles per face
verts = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], dtype=np.float32)
faces = np.array(
    [0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1, 2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4, 1, 5, 7, 1, 7, 3],
    dtype=np.int32,
)
mesh = wp.Mesh(points=wp.array(verts, dtype=wp.vec3), indices=wp.array(faces, dtype=wp.int32))
origins = wp.array(np.random.rand(8, 3).astype(np.float32) * [1, 1, 0] + [0, 0, -1], dtype=wp.vec3)
depth = wp.zeros(8, dtype=float)
wp.launch(raycast_depth, dim=8, inputs=[mesh.id, origins, wp.vec3(0.0, 0.0, 1.0), depth])
pts = wp.array(np.random.rand(8, 3).astype(np.float32) * 2 - 0.5, dtype=wp.vec3)
sign = wp.zeros(8, dtype=float)
wp.launch(inside_outside, dim=8, inputs=[mesh.id, pts, sign])

lo = np.random.rand(20, 3).astype(np.float32)
bvh = wp.Bvh(wp.array(lo, dtype=wp.vec3), wp.array(lo + 0.1, dtype=wp.vec3))
hits = wp.zeros(10, dtype=int)
wp.launch(bvh_ray_hits, dim=10, inputs=[bvh.id, wp.vec3(-1.0, 0.0, 0.5), wp.vec3(1.0, 0.0, 0.0), hits])

vol = wp.Volume.load_from_numpy(np.random.rand(8, 8, 8).astype(np.float32), bg_value=0.0)
dens = wp.zeros(8, dtype=float)
wp.launch(sample_density, dim=8, inputs=[vol.id, pts, dens])
print(depth.numpy().round(2), sign.numpy(), hits.numpy().sum(), dens.numpy().round(2)[:3])
