"""Stream compaction and binning with atomics' return values."""
import numpy as np
import warp as wp


@wp.kernel
def compact_positive(src: wp.array(dtype=float), keep: wp.array(dtype=wp.bool), counter: wp.array(dtype=int),
                     dst: wp.array(dtype=float)):
    i = wp.tid()
    if src[i] > 0.0:
        keep[i] = True
        slot = wp.atomic_add(counter, 0, 1)
        dst[slot] = src[i]
    else:
        keep[i] = False


@wp.kernel
def bucket_of(edges: wp.array(dtype=float), values: wp.array(dtype=float), bucket: wp.array(dtype=int)):
    i = wp.tid()
    bucket[i] = wp.lower_bound(edges, values[i])


rng = np.random.default_rng(3)
src = wp.array(rng.standard_normal(64).astype(np.float32))
keep = wp.zeros(64, dtype=wp.bool)
counter = wp.zeros(1, dtype=int)
dst = wp.zeros(64, dtype=float)
wp.launch(compact_positive, dim=64, inputs=[src, keep, counter, dst])
edges = wp.array(np.linspace(-2, 2, 9, dtype=np.float32))
bucket = wp.zeros(64, dtype=int)
wp.launch(bucket_of, dim=64, inputs=[edges, src, bucket])
print(counter.numpy()[0], np.bincount(bucket.numpy()))
