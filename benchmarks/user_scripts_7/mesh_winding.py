import numpy as np
import warp as wp

wp.set_device("cpu")


def box_mesh():
    pts = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], dtype=np.float32)
    faces = [
        (0, 1, 3), (0, 3, 2), (4, 6, 7), (4, 7, 5), (0, 4, 5), (0, 5, 1),
        (2, 3, 7), (2, 7, 6), (0, 2, 6), (0, 6, 4), (1, 5, 7), (1, 7, 3),
    ]
    return pts, np.array(faces, dtype=np.int32).flatten()


@wp.kernel
def inside_winding(mesh: wp.uint64, pts: wp.array(dtype=wp.vec3), inside: wp.array(dtype=float)):
    i = wp.tid()
    q = wp.mesh_query_point_sign_winding_number(mesh, pts[i], 10.0, 2.0, 0.5)
    if q.result:
        inside[i] = q.sign


@wp.kernel
def face_areas(mesh: wp.uint64, areas: wp.array(dtype=float), vel: wp.array(dtype=float)):
    f = wp.tid()
    a = wp.mesh_get_point(mesh, f * 3 + 0)
    b = wp.mesh_get_point(mesh, f * 3 + 1)
    c = wp.mesh_get_point(mesh, f * 3 + 2)
    areas[f] = 0.5 * wp.length(wp.cross(b - a, c - a))
    vel[f] = wp.length(wp.mesh_get_velocity(mesh, f * 3)) + float(wp.mesh_get_index(mesh, f * 3))


pts, idx = box_mesh()
mesh = wp.Mesh(points=wp.array(pts, dtype=wp.vec3), indices=wp.array(idx, dtype=int),
               velocities=wp.zeros(len(pts), dtype=wp.vec3), support_winding_number=True)
q = wp.array(np.array([[0.5, 0.5, 0.5], [2.0, 0.5, 0.5]], dtype=np.float32), dtype=wp.vec3)
inside = wp.zeros(2, dtype=float)
wp.launch(inside_winding, dim=2, inputs=[mesh.id, q, inside])
areas = wp.zeros(12, dtype=float)
vel = wp.zeros(12, dtype=float)
wp.launch(face_areas, dim=12, inputs=[mesh.id, areas, vel])
print(inside.numpy(), areas.numpy().sum())
