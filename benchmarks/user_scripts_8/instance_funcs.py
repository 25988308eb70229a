import types

import numpy as np
import warp as wp


@wp.func
def _smooth(x: float) -> float:
    return x * x * (3.0 - 2.0 * x)


@wp.func
def _sharp(x: float) -> float:
    return wp.step(0.5 - x)


class Curves:
    smooth = _smooth
    sharp = _sharp


CURVES = Curves()
NS = types.SimpleNamespace(ease=_smooth)


@wp.kernel
def apply_curve_inst(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = CURVES.smooth(a[i]) + CURVES.sharp(a[i])


@wp.kernel
def apply_ns(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = NS.ease(a[i])


a = wp.array(np.linspace(0, 1, 5, dtype=np.float32))
wp.launch(apply_curve_inst, dim=5, inputs=[a])
wp.launch(apply_ns, dim=5, inputs=[a])
print(a.numpy())
