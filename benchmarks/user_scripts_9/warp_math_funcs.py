"""Warp's Python-written helpers: norm_huber, norm_l2, smooth_normalize, transform_from_matrix."""

import numpy as np
import warp as wp


@wp.kernel
def robust_lengths(v: wp.array(dtype=wp.vec3), out: wp.array(dtype=float), dirs: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    out[i] = wp.norm_huber(v[i], 0.5) + wp.norm_l2(v[i])
    dirs[i] = wp.smooth_normalize(v[i], 0.01)


@wp.kernel
def matrices_to_transforms(m: wp.array(dtype=wp.mat44), out: wp.array(dtype=wp.transform)):
    i = wp.tid()
    out[i] = wp.transform_from_matrix(m[i])


v = wp.array(np.random.default_rng(0).normal(size=(6, 3)).astype(np.float32), dtype=wp.vec3)
out = wp.zeros(6, dtype=float)
dirs = wp.zeros(6, dtype=wp.vec3)
wp.launch(robust_lengths, dim=6, inputs=[v, out, dirs])
m = wp.array(np.tile(np.eye(4, dtype=np.float32), (2, 1, 1)), dtype=wp.mat44)
t = wp.zeros(2, dtype=wp.transform)
wp.launch(matrices_to_transforms, dim=2, inputs=[m, t])
print(out.numpy()[:2], t.numpy()[0])
