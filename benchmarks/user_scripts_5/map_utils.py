# wp.map and the helpers in warp.utils, with one hand-written kernel
import numpy as np
import warp as wp


@wp.func
def smoothstep(x: float) -> float:
    t = wp.clamp(x, 0.0, 1.0)
    return t * t * (3.0 - 2.0 * t)


@wp.kernel
def mark_even(values: wp.array(dtype=wp.int32), flags: wp.array(dtype=wp.int32)):
    i = wp.tid()
    flags[i] = wp.where(values[i] % 2 == 0, 1, 0)


vals = wp.array(np.arange(20, dtype=np.int32)[::-1].copy())
flags = wp.zeros(20, dtype=wp.int32)
wp.launch(mark_even, dim=20, inputs=[vals, flags])

xs = wp.array(np.linspace(-0.5, 1.5, 20, dtype=np.float32))
ys = wp.map(smoothstep, xs)
zs = wp.map(lambda a, b: a * 2.0 + b, xs, ys)
print("sum", wp.utils.array_sum(zs))

scan = wp.zeros(20, dtype=wp.int32)
wp.utils.array_scan(flags, scan, inclusive=True)
keys = wp.zeros(40, dtype=wp.int32)
items = wp.zeros(40, dtype=wp.int32)
keys.assign(np.concatenate([vals.numpy(), np.zeros(20, dtype=np.int32)]))
items.assign(np.arange(40, dtype=np.int32))
wp.utils.radix_sort_pairs(keys, items, 20)
print(scan.numpy()[-1], keys.numpy()[:5])
