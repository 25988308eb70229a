# exported from a notebook: the kernel was fixed in a later cell under the same name
import numpy as np
import warp as wp


@wp.kernel
def normalize(v: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v[i] = v[i] / wp.length(v[i])  # divides by zero for zero vectors


v = wp.array(np.random.rand(8, 3).astype(np.float32), dtype=wp.vec3)
wp.launch(normalize, dim=8, inputs=[v])


@wp.kernel
def normalize(v: wp.array(dtype=wp.vec3)):  # noqa: F811
    i = wp.tid()
    v[i] = wp.normalize(v[i])


v = wp.array(np.vstack([np.zeros((1, 3)), np.random.rand(7, 3)]).astype(np.float32), dtype=wp.vec3)
wp.launch(normalize, dim=8, inputs=[v])
print(v.numpy()[:2])
