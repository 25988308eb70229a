import numpy as np
import warp as wp


def make_scale(factor: float):
    @wp.kernel
    def scale(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] * factor

    return scale


class Ops:
    # kernels made while the class body runs
    double = make_scale(2.0)
    halve = make_scale(0.5)

    @staticmethod
    def run(a):
        wp.launch(Ops.double, dim=a.shape[0], inputs=[a])
        wp.launch(Ops.halve, dim=a.shape[0], inputs=[a])


a = wp.array(np.arange(4, dtype=np.float32))
Ops.run(a)
ops = Ops()
wp.launch(ops.double, dim=4, inputs=[a])
print(a.numpy())
