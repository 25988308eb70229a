import numpy as np
import warp as wp

rng = np.random.default_rng(7)
centers = rng.uniform(0, 4, (200, 3)).astype(np.float32)
lowers = wp.array(centers - 0.05, dtype=wp.vec3, device="cpu")
uppers = wp.array(centers + 0.05, dtype=wp.vec3, device="cpu")
bvh = wp.Bvh(lowers, uppers)


@wp.kernel
def sphere_hits(bvh: wp.uint64, q: wp.array(dtype=wp.vec3), r: float, counts: wp.array(dtype=int)):
    i = wp.tid()
    query = wp.bvh_query_sphere(bvh, q[i], r)
    idx = int(0)
    n = int(0)
    while wp.bvh_query_next(query, idx):
        n += 1
    counts[i] = n


@wp.kernel
def capsule_hits(bvh: wp.uint64, start: wp.array(dtype=wp.vec3), dirs: wp.array(dtype=wp.vec3), counts: wp.array(dtype=int)):
    i = wp.tid()
    query = wp.bvh_query_capsule(bvh, start[i], dirs[i], 0.2)
    idx = int(0)
    while wp.bvh_query_next(query, idx):
        counts[i] += 1


q = wp.array(rng.uniform(0, 4, (16, 3)).astype(np.float32), dtype=wp.vec3, device="cpu")
counts = wp.zeros(16, dtype=int, device="cpu")
wp.launch(sphere_hits, dim=16, inputs=[bvh.id, q, 0.5, counts], device="cpu")
d = wp.array(np.tile([[1.0, 0.0, 0.0]], (16, 1)).astype(np.float32), dtype=wp.vec3, device="cpu")
c2 = wp.zeros(16, dtype=int, device="cpu")
wp.launch(capsule_hits, dim=16, inputs=[bvh.id, q, d, c2], device="cpu")
print(counts.numpy(), c2.numpy())
