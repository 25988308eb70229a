from typing import Any

import warp as wp


@wp.kernel
def scale_any(a: wp.array(dtype=Any), s: Any):
    i = wp.tid()
    a[i] = a[i] * s


wp.overload(scale_any, [wp.array(dtype=wp.float32), wp.float32])
wp.overload(scale_any, [wp.array(dtype=wp.float64), wp.float64])
wp.overload(scale_any, {"a": wp.array(dtype=wp.vec3), "s": wp.float32})


@wp.kernel
def add_arrays(a: wp.array(dtype=Any), b: wp.array(dtype=Any), c: wp.array(dtype=Any)):
    i = wp.tid()
    c[i] = a[i] + b[i]


for T in [wp.int32, wp.float32, wp.vec2, wp.mat22]:
    wp.overload(add_arrays, {"a": wp.array(dtype=T), "b": wp.array(dtype=T), "c": wp.array(dtype=T)})


@wp.func
def lerp_any(a: Any, b: Any, t: float):
    return a * (1.0 - t) + b * t


@wp.kernel
def lerp_kernel(a: wp.array(dtype=Any), b: wp.array(dtype=Any), t: float, out: wp.array(dtype=Any)):
    i = wp.tid()
    out[i] = lerp_any(a[i], b[i], t)


# explicit overloads via decorator stubs
@wp.overload
def lerp_kernel(a: wp.array(dtype=wp.vec3), b: wp.array(dtype=wp.vec3), t: float, out: wp.array(dtype=wp.vec3)): ...


@wp.overload
def lerp_kernel(a: wp.array(dtype=float), b: wp.array(dtype=float), t: float, out: wp.array(dtype=float)): ...


@wp.kernel
def never_specialised(a: wp.array(dtype=Any)):
    i = wp.tid()
    a[i] = a[i] + a[i]


if __name__ == "__main__":
    x = wp.ones(8, dtype=wp.float64)
    wp.launch(scale_any, dim=8, inputs=[x, wp.float64(3.0)])
    y = wp.ones(8, dtype=wp.vec3)
    z = wp.zeros(8, dtype=wp.vec3)
    wp.launch(lerp_kernel, dim=8, inputs=[y, y, 0.5, z])
    print(x, z)
