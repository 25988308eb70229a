# activation kernels made from plain functions in a dict comprehension
import numpy as np
import warp as wp


def _relu(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = wp.max(x[i], 0.0)


def _leaky(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = wp.where(x[i] > 0.0, x[i], 0.01 * x[i])


def _swish(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = x[i] / (1.0 + wp.exp(-x[i]))


ACTIVATIONS = {f.__name__.strip("_"): wp.kernel(f) for f in (_relu, _leaky, _swish)}

x = wp.array(np.linspace(-2, 2, 9, dtype=np.float32))
for name, kern in ACTIVATIONS.items():
    y = wp.zeros_like(x)
    wp.launch(kern, dim=9, inputs=[x, y])
    print(name, y.numpy()[:3])
