import numpy as np
import warp as wp

BLOCK = 16


@wp.kernel
def tile_box_hits(bvh: wp.uint64, lo: wp.array(dtype=wp.vec3), hi: wp.array(dtype=wp.vec3), counts: wp.array(dtype=int)):
    i, lane = wp.tid()
    q = wp.tile_bvh_query_aabb(bvh, lo[i], hi[i])
    while wp.tile_query_valid(q):
        bound = wp.untile(wp.tile_bvh_query_next(q))
        if bound >= 0:
            wp.atomic_add(counts, i, 1)


@wp.kernel
def aabb_centers(lo: wp.array(dtype=wp.vec3), hi: wp.array(dtype=wp.vec3), c: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    c[i] = 0.5 * (lo[i] + hi[i])


if __name__ == "__main__":
    rng = np.random.default_rng(3)
    p = rng.random((20, 3)).astype(np.float32)
    lo = wp.array(p, dtype=wp.vec3)
    hi = wp.array(p + 0.1, dtype=wp.vec3)
    bvh = wp.Bvh(lo, hi)
    counts = wp.zeros(4, dtype=int)
    wp.launch_tiled(tile_box_hits, dim=[4], inputs=[bvh.id, lo, hi, counts], block_dim=BLOCK)
    c = wp.zeros(20, dtype=wp.vec3)
    wp.launch(aabb_centers, dim=20, inputs=[lo, hi, c])
    print(counts.numpy())
