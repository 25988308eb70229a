import numpy as np
import warp as wp

wp.set_device("cpu")


@wp.kernel
def closest_query(mesh: wp.uint64, pts: wp.array(dtype=wp.vec3), d: wp.array(dtype=float),
                  normals: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    q = wp.mesh_query_point(mesh, pts[i], 10.0)
    if q.result:
        cp = wp.mesh_eval_position(mesh, q.face, q.u, q.v)
        d[i] = q.sign * wp.length(pts[i] - cp)
        normals[i] = wp.mesh_eval_face_normal(mesh, q.face)


@wp.kernel
def ray_query(mesh: wp.uint64, origins: wp.array(dtype=wp.vec3), t: wp.array(dtype=float)):
    i = wp.tid()
    q = wp.mesh_query_ray(mesh, origins[i], wp.vec3(0.0, -1.0, 0.0), 100.0)
    if q.result:
        t[i] = q.t
    else:
        t[i] = -1.0


verts = np.array([[-1, 0, -1], [1, 0, -1], [1, 0, 1], [-1, 0, 1]], dtype=np.float32)
faces = np.array([0, 2, 1, 0, 3, 2], dtype=np.int32)
mesh = wp.Mesh(points=wp.array(verts, dtype=wp.vec3), indices=wp.array(faces, dtype=int))
pts = wp.array(np.array([[0, 1, 0], [0.5, 2, 0.5]], dtype=np.float32), dtype=wp.vec3)
d = wp.zeros(2, dtype=float)
nrm = wp.zeros(2, dtype=wp.vec3)
wp.launch(closest_query, dim=2, inputs=[mesh.id, pts, d, nrm])
t = wp.zeros(2, dtype=float)
wp.launch(ray_query, dim=2, inputs=[mesh.id, pts, t])
print(d.numpy(), t.numpy())
