# small-int and half vectors: vec4ub colours, vec3h, a custom vector of uint8
import numpy as np
import warp as wp

rgb8 = wp.types.vector(length=3, dtype=wp.uint8)


@wp.kernel
def colors_u8(v: wp.array(dtype=float), out: wp.array(dtype=wp.vec4ub), gray: wp.array(dtype=rgb8)):
    i = wp.tid()
    c = wp.uint8(wp.clamp(v[i], 0.0, 1.0) * 255.0)
    out[i] = wp.vec4ub(c, wp.uint8(255) - c, wp.uint8(0), wp.uint8(255))
    gray[i] = rgb8(c, c, c)


@wp.kernel
def half_lerp(a: wp.array(dtype=wp.vec3h), b: wp.array(dtype=wp.vec3h), t: wp.float16, out: wp.array(dtype=wp.vec3h)):
    i = wp.tid()
    out[i] = a[i] + (b[i] - a[i]) * t


v = wp.array(np.linspace(0, 1, 4, dtype=np.float32))
out = wp.zeros(4, dtype=wp.vec4ub)
gray = wp.zeros(4, dtype=rgb8)
wp.launch(colors_u8, dim=4, inputs=[v, out, gray])
a = wp.zeros(4, dtype=wp.vec3h)
b = wp.array(np.ones((4, 3), dtype=np.float16), dtype=wp.vec3h)
o = wp.zeros(4, dtype=wp.vec3h)
wp.launch(half_lerp, dim=4, inputs=[a, b, wp.float16(0.25), o])
print(out.numpy()[1], gray.numpy()[2], o.numpy()[0])
