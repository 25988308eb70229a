import numpy as np
import warp as wp


@wp.kernel
def edge_distances(
    p1: wp.array(dtype=wp.vec3),
    q1: wp.array(dtype=wp.vec3),
    p2: wp.array(dtype=wp.vec3),
    q2: wp.array(dtype=wp.vec3),
    dist: wp.array(dtype=float),
):
    i = wp.tid()
    st = wp.closest_point_edge_edge(p1[i], q1[i], p2[i], q2[i], 1.0e-6)
    a = p1[i] + st[0] * (q1[i] - p1[i])
    b = p2[i] + st[1] * (q2[i] - p2[i])
    dist[i] = wp.length(a - b)


@wp.kernel
def tri_overlap(tris_a: wp.array(dtype=wp.vec3, ndim=2), tris_b: wp.array(dtype=wp.vec3, ndim=2), hit: wp.array(dtype=int)):
    i = wp.tid()
    hit[i] = wp.intersect_tri_tri(
        tris_a[i, 0], tris_a[i, 1], tris_a[i, 2], tris_b[i, 0], tris_b[i, 1], tris_b[i, 2]
    )


if __name__ == "__main__":
    rng = np.random.default_rng(1)
    n = 4
    pts = [wp.array(rng.random((n, 3)), dtype=wp.vec3) for _ in range(4)]
    d = wp.zeros(n, dtype=float)
    wp.launch(edge_distances, dim=n, inputs=[*pts, d])
    ta = wp.array(rng.random((n, 3, 3)), dtype=wp.vec3)
    tb = wp.array(rng.random((n, 3, 3)), dtype=wp.vec3)
    hit = wp.zeros(n, dtype=int)
    wp.launch(tri_overlap, dim=n, inputs=[ta, tb, hit])
    print(d.numpy(), hit.numpy())
