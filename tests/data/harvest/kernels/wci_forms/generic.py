from typing import Any

import warp as wp


@wp.kernel
def fill(a: wp.array(dtype=Any), value: Any):
    i = wp.tid()
    a[i] = value


wp.overload(fill, [wp.array(dtype=wp.float32), wp.float32])
wp.overload(fill, {"a": wp.array(dtype=wp.vec3), "value": wp.vec3})


@wp.kernel
def never_specialised(a: wp.array(dtype=Any)):
    i = wp.tid()
    a[i] = a[i] + a[i]
