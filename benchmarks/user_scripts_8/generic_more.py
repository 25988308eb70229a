from typing import Any

import numpy as np
import warp as wp


@wp.struct
class Sample:
    value: float
    weight: float


@wp.kernel
def count_bits(a: wp.array(dtype=wp.Int), out: wp.array(dtype=wp.Int)):
    i = wp.tid()
    x = a[i]
    c = a.dtype(0)
    while x != a.dtype(0):
        c += x & a.dtype(1)
        x = x >> a.dtype(1)
    out[i] = c


@wp.kernel
def copy_any(src: wp.array(dtype=Any), dst: wp.array(dtype=Any)):
    i = wp.tid()
    dst[i] = src[i]


a32 = wp.array(np.arange(8, dtype=np.int32))
o32 = wp.zeros(8, dtype=wp.int32)
wp.launch(count_bits, dim=8, inputs=[a32, o32])
a64 = wp.array(np.arange(8, dtype=np.int64), dtype=wp.int64)
o64 = wp.zeros(8, dtype=wp.int64)
wp.launch(count_bits, dim=8, inputs=[a64, o64])

samples = []
for k in range(3):
    s = Sample()
    s.value = float(k)
    s.weight = 1.0
    samples.append(s)
src = wp.array(samples, dtype=Sample)
dst = wp.zeros(3, dtype=Sample)
wp.launch(copy_any, dim=3, inputs=[src, dst])
m = wp.array(np.ones((2, 2, 2), dtype=np.float32), dtype=wp.mat22)
m2 = wp.zeros(2, dtype=wp.mat22)
wp.launch(copy_any, dim=2, inputs=[m, m2])
print(o32.numpy(), o64.numpy(), dst.numpy())
