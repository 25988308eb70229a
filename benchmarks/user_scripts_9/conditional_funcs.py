"""A wp.func defined differently in the two arms of an if on a setting, and one chosen by try/except."""

import os

import numpy as np
import warp as wp

USE_FAST = os.environ.get("FAST_MATH", "1") == "1"

if USE_FAST:

    @wp.func
    def activation(x: float):
        return x / (1.0 + wp.abs(x))

else:

    @wp.func
    def activation(x: float):
        return wp.tanh(x)


try:
    import scipy.special  # noqa: F401

    @wp.func
    def smooth(x: float):
        return 1.0 / (1.0 + wp.exp(-x))

except ImportError:

    @wp.func
    def smooth(x: float):
        return wp.clamp(0.5 + 0.25 * x, 0.0, 1.0)


@wp.kernel
def activate(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = activation(x[i])


@wp.kernel
def gate(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = smooth(x[i]) * x[i]


x = wp.array(np.linspace(-2, 2, 5, dtype=np.float32))
wp.launch(activate, dim=5, inputs=[x])
y = wp.zeros(5, dtype=float)
wp.launch(gate, dim=5, inputs=[x, y])
print(x.numpy(), y.numpy())
