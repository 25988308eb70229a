import numpy as np
import warp as wp

wp.set_device("cpu")

# a unit cube as a triangle mesh
verts = np.array(
    [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]], dtype=np.float32
)
faces = np.array(
    [0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3],
    dtype=np.int32,
)
mesh = wp.Mesh(points=wp.array(verts, dtype=wp.vec3), indices=wp.array(faces, dtype=int))


@wp.kernel
def ray_crossings(mesh: wp.uint64, origins: wp.array(dtype=wp.vec3), counts: wp.array(dtype=int), hit: wp.array(dtype=int)):
    i = wp.tid()
    d = wp.vec3(1.0, 0.0, 0.0)
    counts[i] = wp.mesh_query_ray_count_intersections(mesh, origins[i], d)
    if wp.mesh_query_ray_anyhit(mesh, origins[i], d, 1.0e6):
        hit[i] = 1


@wp.kernel
def edge_gaps(p: wp.array(dtype=wp.vec3), q: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    i = wp.tid()
    r = wp.closest_point_edge_edge(p[2 * i], p[2 * i + 1], q[2 * i], q[2 * i + 1], 1.0e-6)
    out[i] = r[2]


@wp.kernel
def tri_overlap(a: wp.array(dtype=wp.vec3), b: wp.array(dtype=wp.vec3), out: wp.array(dtype=int)):
    i = wp.tid()
    out[i] = wp.intersect_tri_tri(a[3 * i], a[3 * i + 1], a[3 * i + 2], b[3 * i], b[3 * i + 1], b[3 * i + 2])


origins = wp.array(np.array([[-1, 0.5, 0.5], [-1, 2, 2], [0.5, 0.5, 0.5]], dtype=np.float32), dtype=wp.vec3)
counts = wp.zeros(3, dtype=int)
hit = wp.zeros(3, dtype=int)
wp.launch(ray_crossings, dim=3, inputs=[mesh.id, origins, counts, hit])
p = wp.array(np.array([[0, 0, 0], [1, 0, 0]], dtype=np.float32), dtype=wp.vec3)
q = wp.array(np.array([[0.5, -1, 1], [0.5, 1, 1]], dtype=np.float32), dtype=wp.vec3)
gap = wp.zeros(1, dtype=float)
wp.launch(edge_gaps, dim=1, inputs=[p, q, gap])
ta = wp.array(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], dtype=np.float32), dtype=wp.vec3)
tb = wp.array(np.array([[0.2, 0.2, -1], [0.2, 0.2, 1], [0.8, 0.8, 0]], dtype=np.float32), dtype=wp.vec3)
ov = wp.zeros(1, dtype=int)
wp.launch(tri_overlap, dim=1, inputs=[ta, tb, ov])
print(counts.numpy(), hit.numpy(), gap.numpy(), ov.numpy())
