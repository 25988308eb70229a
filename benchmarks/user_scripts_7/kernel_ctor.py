# making Kernel objects by hand instead of the decorator
import numpy as np
import warp as wp


def _axpy(a: float, x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = a * x[i] + y[i]


def _negate(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = -x[i]


axpy = wp.Kernel(func=_axpy, key="axpy_manual")
negate = wp.Kernel(_negate, key="negate", module=wp.get_module(__name__))

x = wp.array(np.arange(4, dtype=np.float32))
y = wp.ones(4, dtype=float)
wp.launch(axpy, dim=4, inputs=[2.0, x, y])
wp.launch(negate, dim=4, inputs=[y])
print(y.numpy())
