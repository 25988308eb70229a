# wp.Mesh: aabb queries, barycentric evaluation, furthest point, unsigned closest point
import numpy as np
import warp as wp

wp.set_device("cpu")


@wp.kernel
def aabb_tri_count(mesh: wp.uint64, lowers: wp.array(dtype=wp.vec3), uppers: wp.array(dtype=wp.vec3),
                   counts: wp.array(dtype=int)):
    i = wp.tid()
    q = wp.mesh_query_aabb(mesh, lowers[i], uppers[i])
    face = int(0)
    c = int(0)
    while wp.mesh_query_aabb_next(q, face):
        c += 1
    counts[i] = c


@wp.kernel
def surface_samples(mesh: wp.uint64, faces: wp.array(dtype=int), uv: wp.array(dtype=wp.vec2),
                    out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    out[i] = wp.mesh_eval_position(mesh, faces[i], uv[i][0], uv[i][1])


@wp.kernel
def closest_and_furthest(mesh: wp.uint64, pts: wp.array(dtype=wp.vec3), near: wp.array(dtype=float),
                         far: wp.array(dtype=float)):
    i = wp.tid()
    p = pts[i]
    q = wp.mesh_query_point_no_sign(mesh, p, 1.0e6)
    if q.result:
        near[i] = wp.length(p - wp.mesh_eval_position(mesh, q.face, q.u, q.v))
    r = wp.mesh_query_furthest_point_no_sign(mesh, p, 0.0)
    if r.result:
        far[i] = wp.length(p - wp.mesh_eval_position(mesh, r.face, r.u, r.v))


verts = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]], dtype=np.float32)
tris = np.array([0, 1, 2, 1, 3, 2], dtype=np.int32)
mesh = wp.Mesh(points=wp.array(verts, dtype=wp.vec3), indices=wp.array(tris, dtype=int))
lo = wp.array([wp.vec3(-0.1, -0.1, -0.1)], dtype=wp.vec3)
hi = wp.array([wp.vec3(0.2, 0.2, 0.1)], dtype=wp.vec3)
counts = wp.zeros(1, dtype=int)
wp.launch(aabb_tri_count, dim=1, inputs=[mesh.id, lo, hi, counts])
faces = wp.array([0, 1], dtype=int)
uv = wp.array([wp.vec2(0.3, 0.3), wp.vec2(0.5, 0.2)], dtype=wp.vec2)
out = wp.zeros(2, dtype=wp.vec3)
wp.launch(surface_samples, dim=2, inputs=[mesh.id, faces, uv, out])
pts = wp.array([wp.vec3(0.5, 0.5, 1.0)], dtype=wp.vec3)
near = wp.zeros(1, dtype=float)
far = wp.zeros(1, dtype=float)
wp.launch(closest_and_furthest, dim=1, inputs=[mesh.id, pts, near, far])
print(counts.numpy(), out.numpy(), near.numpy(), far.numpy())
