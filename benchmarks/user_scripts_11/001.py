import numpy as np
import warp as wp

wp.init()


@wp.kernel
def bvh_overlaps(bvh: wp.uint64, lowers: wp.array(dtype=wp.vec3), uppers: wp.array(dtype=wp.vec3), counts: wp.array(dtype=int)):
    tid = wp.tid()
    query = wp.bvh_query_aabb(bvh, lowers[tid], uppers[tid])
    bounds_nr = int(0)
    n = int(0)
    while wp.bvh_query_next(query, bounds_nr):
        n += 1
    counts[tid] = n


@wp.kernel
def bvh_rays(bvh: wp.uint64, origins: wp.array(dtype=wp.vec3), hits: wp.array(dtype=int)):
    tid = wp.tid()
    query = wp.bvh_query_ray(bvh, origins[tid], wp.vec3(0.0, 0.0, 1.0))
    bounds_nr = int(0)
    while wp.bvh_query_next(query, bounds_nr):
        wp.atomic_add(hits, tid, 1)


rng = np.random.default_rng(0)
lo = rng.random((32, 3)).astype(np.float32)
lowers = wp.array(lo, dtype=wp.vec3)
uppers = wp.array(lo + 0.1, dtype=wp.vec3)
bvh = wp.Bvh(lowers, uppers)
counts = wp.zeros(32, dtype=int)
wp.launch(bvh_overlaps, dim=32, inputs=[bvh.id, lowers, uppers, counts])
hits = wp.zeros(32, dtype=int)
wp.launch(bvh_rays, dim=32, inputs=[bvh.id, lowers, hits])
print(counts.numpy().sum(), hits.numpy().sum())
