import functools
from typing import Any

import warp as wp


@wp.kernel
def generic_accumulate(src: wp.array(dtype=Any), dst: wp.array(dtype=Any), w: Any):
    i = wp.tid()
    dst[i] = dst[i] + w * src[i]


@functools.cache
def accumulate_for(dtype):
    scalar = getattr(dtype, "_wp_scalar_type_", dtype)
    return wp.overload(generic_accumulate, {"src": wp.array(dtype=dtype), "dst": wp.array(dtype=dtype), "w": scalar})


@wp.kernel
def generic_fill(dst: wp.array(dtype=Any), value: Any):
    dst[wp.tid()] = value


for dtype in (wp.float64, wp.vec2):
    src = wp.ones(3, dtype=dtype)
    dst = wp.zeros(3, dtype=dtype)
    scalar = wp.float64(0.5) if dtype is wp.float64 else wp.float32(0.5)
    wp.launch(accumulate_for(dtype), dim=3, inputs=[src, dst, scalar])
    print(dst.numpy()[0])
ints = wp.zeros(3, dtype=wp.int16)
wp.launch(generic_fill, dim=3, inputs=[ints, wp.int16(7)])
print(ints.numpy())
