import numpy as np
import warp as wp

# plain module-level values, no wp.constant
GRAVITY = wp.vec3(0.0, -9.81, 0.0)
QUARTER_TURN = wp.mat22(0.0, -1.0, 1.0, 0.0)
HALF = wp.float16(0.5)


@wp.kernel
def fall_vec(v: wp.array(dtype=wp.vec3), dt: float):
    i = wp.tid()
    v[i] = v[i] + GRAVITY * dt


@wp.kernel
def rotate_plain(p: wp.array(dtype=wp.vec2), h: wp.array(dtype=wp.float16)):
    i = wp.tid()
    p[i] = QUARTER_TURN * p[i]
    h[i] = h[i] * HALF


v = wp.zeros(8, dtype=wp.vec3)
wp.launch(fall_vec, dim=8, inputs=[v, 0.1])
p = wp.array(np.ones((8, 2), dtype=np.float32), dtype=wp.vec2)
h = wp.ones(8, dtype=wp.float16)
wp.launch(rotate_plain, dim=8, inputs=[p, h])
print(v.numpy()[0], p.numpy()[0], h.numpy()[0])
