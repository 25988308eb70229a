from typing import Any

import numpy as np
import warp as wp


@wp.kernel
def scale_generic(a: wp.array(dtype=Any), s: Any):
    i = wp.tid()
    a[i] = a[i] * s


@wp.kernel
def sum_generic(a: wp.array(dtype=Any), out: wp.array(dtype=Any)):
    i = wp.tid()
    wp.atomic_add(out, 0, a[i])


# launched with several dtypes; warp specialises at launch
for dt, np_dt in [(wp.float32, np.float32), (wp.float64, np.float64), (wp.int32, np.int32)]:
    arr = wp.array(np.ones(10, dtype=np_dt), dtype=dt, device="cpu")
    out = wp.zeros(1, dtype=dt, device="cpu")
    wp.launch(scale_generic, dim=10, inputs=[arr, dt(3)], device="cpu")
    wp.launch(sum_generic, dim=10, inputs=[arr, out], device="cpu")
    print(dt.__name__, out.numpy()[0])
