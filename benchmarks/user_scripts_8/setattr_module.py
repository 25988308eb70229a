import sys

import numpy as np
import warp as wp


def make_scale(factor):
    @wp.kernel
    def scale(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] * factor

    return scale


# scale_2, scale_10 as module attributes, for `from setattr_module import scale_2`
for _f in (2, 10):
    setattr(sys.modules[__name__], f"scale_{_f}", make_scale(float(_f)))


def _shift(a: wp.array(dtype=float), b: float):
    i = wp.tid()
    a[i] = a[i] + b


globals().update({"shift": wp.kernel(_shift)})

a = wp.array(np.ones(4, dtype=np.float32))
wp.launch(scale_2, dim=4, inputs=[a])  # noqa: F821
wp.launch(scale_10, dim=4, inputs=[a])  # noqa: F821
wp.launch(shift, dim=4, inputs=[a, 1.0])  # noqa: F821
print(a.numpy())
