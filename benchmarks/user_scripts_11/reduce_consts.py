import functools
import operator

import warp as wp

SHAPE = (4, 8, 2)
TOTAL = functools.reduce(operator.mul, SHAPE, 1)
OFFSETS = list(__import__("itertools").accumulate(SHAPE))
SCALE = operator.truediv(1.0, TOTAL)


@wp.kernel
def flat_mean(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(out, 0, a[i] * SCALE)


@wp.kernel
def offset_index(out: wp.array(dtype=int)):
    i = wp.tid()
    out[i] = i + wp.static(OFFSETS[-1])


a = wp.ones(TOTAL, dtype=float)
m = wp.zeros(1, dtype=float)
wp.launch(flat_mean, dim=TOTAL, inputs=[a, m])
o = wp.zeros(4, dtype=int)
wp.launch(offset_index, dim=4, inputs=[o])
print(m.numpy(), o.numpy())
