"""mesh_query_sphere / mesh_query_next, mesh_query_point_sign_parity, a mesh built on the CPU."""

import numpy as np
import warp as wp

wp.set_device("cpu")

# two triangles forming a unit square in z = 0, and a closed tetrahedron
SQUARE_P = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], dtype=np.float32)
SQUARE_I = np.array([0, 1, 2, 0, 2, 3], dtype=np.int32)
TET_P = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=np.float32)
TET_I = np.array([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3], dtype=np.int32)


@wp.kernel
def faces_near(mesh: wp.uint64, centers: wp.array(dtype=wp.vec3), radius: float, counts: wp.array(dtype=int)):
    i = wp.tid()
    query = wp.mesh_query_sphere(mesh, centers[i], radius)
    face = int(0)
    n = int(0)
    while wp.mesh_query_next(query, face):
        n += 1
    counts[i] = n


@wp.kernel
def parity_inside(mesh: wp.uint64, pts: wp.array(dtype=wp.vec3), inside: wp.array(dtype=float)):
    i = wp.tid()
    q = wp.mesh_query_point_sign_parity(mesh, pts[i], 10.0)
    if q.result:
        inside[i] = q.sign


square = wp.Mesh(points=wp.array(SQUARE_P, dtype=wp.vec3), indices=wp.array(SQUARE_I, dtype=int))
tet = wp.Mesh(points=wp.array(TET_P, dtype=wp.vec3), indices=wp.array(TET_I, dtype=int))
centers = wp.array(np.array([[0.5, 0.5, 0.1], [3.0, 3.0, 3.0]], dtype=np.float32), dtype=wp.vec3)
counts = wp.zeros(2, dtype=int)
wp.launch(faces_near, dim=2, inputs=[square.id, centers, 0.3, counts])
pts = wp.array(np.array([[0.1, 0.1, 0.1], [2.0, 2.0, 2.0]], dtype=np.float32), dtype=wp.vec3)
inside = wp.zeros(2, dtype=float)
wp.launch(parity_inside, dim=2, inputs=[tet.id, pts, inside])
print(counts.numpy(), inside.numpy())
