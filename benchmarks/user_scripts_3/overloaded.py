from typing import Any

import warp as wp


@wp.kernel
def clamp_kernel(a: wp.array(dtype=Any), lo: Any, hi: Any):
    i = wp.tid()
    a[i] = wp.clamp(a[i], lo, hi)


@wp.overload
def clamp_kernel(a: wp.array(dtype=wp.float32), lo: wp.float32, hi: wp.float32): ...


@wp.overload
def clamp_kernel(a: wp.array(dtype=wp.float16), lo: wp.float16, hi: wp.float16): ...


@wp.kernel
def copy_vec(src: wp.array(dtype=Any), dst: wp.array(dtype=Any)):
    i = wp.tid()
    dst[i] = src[i]


for vt in (wp.vec2, wp.vec3, wp.vec4):
    wp.overload(copy_vec, [wp.array(dtype=vt), wp.array(dtype=vt)])

if __name__ == "__main__":
    a = wp.array([0.5, 2.0, -1.0], dtype=wp.float32, device="cpu")
    wp.launch(clamp_kernel, dim=3, inputs=[a, wp.float32(0.0), wp.float32(1.0)], device="cpu")
    print(a.numpy())
    s = wp.ones(3, dtype=wp.vec3, device="cpu")
    d = wp.zeros(3, dtype=wp.vec3, device="cpu")
    wp.launch(copy_vec, dim=3, inputs=[s, d], device="cpu")
    print(d.numpy())
