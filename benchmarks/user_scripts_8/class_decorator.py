import numpy as np
import warp as wp


def kernels(cls):
    """Turn every plain function of the class body into a Warp kernel."""
    for name, value in list(vars(cls).items()):
        if callable(value) and not name.startswith("_"):
            setattr(cls, name, wp.kernel(value))
    return cls


@kernels
class Ops:
    def double(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = 2.0 * a[i]

    def negate(a: wp.array(dtype=float), out: wp.array(dtype=float)):
        i = wp.tid()
        out[i] = -a[i]


a = wp.array(np.arange(6, dtype=np.float32))
b = wp.zeros(6, dtype=float)
wp.launch(Ops.double, dim=6, inputs=[a])
wp.launch(Ops.negate, dim=6, inputs=[a, b])
print(b.numpy())
