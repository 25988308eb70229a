from typing import Any

import numpy as np
import warp as wp


# the same helper name for several argument types: Warp picks by annotation
@wp.func
def magnitude(x: float):
    return wp.abs(x)


@wp.func
def magnitude(x: wp.vec2):  # noqa: F811
    return wp.length(x)


@wp.func
def magnitude(x: wp.vec3):  # noqa: F811
    return wp.length(x)


@wp.func
def lerp_any(a: Any, b: Any, t: float):
    return a + (b - a) * t


snippet = """
    return x * x + 1.0f;
"""


@wp.func_native(snippet)
def square_plus_one(x: float) -> float: ...


@wp.kernel
def magnitudes(s: wp.array(dtype=float), v2: wp.array(dtype=wp.vec2), v3: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = magnitude(s[i]) + magnitude(v2[i]) + magnitude(v3[i])


@wp.kernel
def blend(a: wp.array(dtype=wp.vec3), b: wp.array(dtype=wp.vec3), t: float, out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    out[i] = lerp_any(a[i], b[i], t)


@wp.kernel
def native_map(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = square_plus_one(x[i]) + lerp_any(0.0, 1.0, 0.5)


if __name__ == "__main__":
    n = 5
    s = wp.array(-np.arange(n, dtype=np.float32), device="cpu")
    v2 = wp.ones(n, dtype=wp.vec2, device="cpu")
    v3 = wp.ones(n, dtype=wp.vec3, device="cpu")
    out = wp.zeros(n, dtype=float, device="cpu")
    wp.launch(magnitudes, dim=n, inputs=[s, v2, v3, out], device="cpu")
    o3 = wp.zeros(n, dtype=wp.vec3, device="cpu")
    wp.launch(blend, dim=n, inputs=[v3, o3, 0.25, o3], device="cpu")
    wp.launch(native_map, dim=n, inputs=[out], device="cpu")
    print(out.numpy())
