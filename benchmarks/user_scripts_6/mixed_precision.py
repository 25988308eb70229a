# float64 accumulation of float32 data, int8/uint64 casts, vec3d
import numpy as np
import warp as wp


@wp.kernel
def accumulate_f64(x: wp.array(dtype=wp.float32), total: wp.array(dtype=wp.float64)):
    i = wp.tid()
    wp.atomic_add(total, 0, wp.float64(x[i]) * wp.float64(x[i]))


@wp.kernel
def quantize(p: wp.array(dtype=wp.vec3d), q: wp.array(dtype=wp.int8), key: wp.array(dtype=wp.uint64)):
    i = wp.tid()
    v = wp.normalize(p[i])
    q[i] = wp.int8(wp.clamp(v[0] * wp.float64(127.0), wp.float64(-127.0), wp.float64(127.0)))
    key[i] = wp.uint64(i) * wp.uint64(2654435761)


x = wp.array(np.arange(5, dtype=np.float32))
t = wp.zeros(1, dtype=wp.float64)
wp.launch(accumulate_f64, dim=5, inputs=[x, t])
p = wp.array(np.random.default_rng(5).random((4, 3)), dtype=wp.vec3d)
q = wp.zeros(4, dtype=wp.int8)
k = wp.zeros(4, dtype=wp.uint64)
wp.launch(quantize, dim=4, inputs=[p, q, k])
print(t.numpy(), q.numpy(), k.numpy())
