import numpy as np
import warp as wp


@wp.kernel
def build_frames(n: wp.array(dtype=wp.vec3), frames: wp.array(dtype=wp.mat33)):
    i = wp.tid()
    z = wp.normalize(n[i])
    up = wp.vector(0.0, 1.0, 0.0)
    if wp.abs(wp.dot(z, up)) > 0.99:
        up = wp.vector(1.0, 0.0, 0.0)
    x = wp.normalize(wp.cross(up, z))
    y = wp.cross(z, x)
    m = wp.matrix_from_cols(x, y, z)
    frames[i] = m + wp.identity(n=3, dtype=float) * 0.0


@wp.kernel
def edit_components(p: wp.array(dtype=wp.vec3), q: wp.array(dtype=wp.vec4)):
    i = wp.tid()
    v = p[i]
    v[1] = 0.0
    v.z = v.z * 2.0
    p[i] = v
    p[i].x += 1.0
    w = wp.vector(length=4, dtype=float)
    w[3] = 1.0
    q[i] = w + wp.vec4(v[0], v[1], v[2], 0.0)


rng = np.random.default_rng(0)
n = wp.array(rng.standard_normal((8, 3)).astype(np.float32), dtype=wp.vec3)
f = wp.zeros(8, dtype=wp.mat33)
wp.launch(build_frames, dim=8, inputs=[n, f])
q = wp.zeros(8, dtype=wp.vec4)
wp.launch(edit_components, dim=8, inputs=[n, q])
print(f.numpy()[0], q.numpy()[0])
