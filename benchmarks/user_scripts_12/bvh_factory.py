import numpy as np

import warp as wp


def make_ray_counter(max_t: float, direction=(1.0, 0.0, 0.0)):
    d = wp.normalize(wp.vec3(*direction))

    @wp.kernel
    def ray_hits_dir(bvh: wp.uint64, origins: wp.array(dtype=wp.vec3), hits: wp.array(dtype=int)):
        i = wp.tid()
        query = wp.bvh_query_ray(bvh, origins[i], d)
        bounds_nr = int(0)
        n = int(0)
        while wp.bvh_query_next(query, bounds_nr, max_t):
            n += 1
        hits[i] = n

    return ray_hits_dir


@wp.kernel
def box_overlap_count(
    bvh: wp.uint64, lo: wp.array(dtype=wp.vec3), hi: wp.array(dtype=wp.vec3), counts: wp.array(dtype=int)
):
    i = wp.tid()
    query = wp.bvh_query_aabb(bvh, lo[i], hi[i])
    b = int(0)
    while wp.bvh_query_next(query, b):
        counts[i] += 1


def main(max_t=10.0):
    centers = np.linspace(0.0, 4.0, 5, dtype=np.float32)
    lowers = np.stack([centers - 0.25, -0.25 * np.ones(5), -0.25 * np.ones(5)], axis=1).astype(np.float32)
    uppers = lowers + 0.5
    bvh = wp.Bvh(wp.array(lowers, dtype=wp.vec3), wp.array(uppers, dtype=wp.vec3))
    origins = wp.array([[-1.0, 0.0, 0.0]], dtype=wp.vec3)
    hits = wp.zeros(1, dtype=int)
    wp.launch(make_ray_counter(max_t), dim=1, inputs=[bvh.id, origins, hits])
    counts = wp.zeros(5, dtype=int)
    wp.launch(box_overlap_count, dim=5, inputs=[bvh.id, bvh.lowers, bvh.uppers, counts])
    print(hits.numpy(), counts.numpy())


if __name__ == "__main__":
    main()
