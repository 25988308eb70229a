"""Kernels made in loops over dict.items() with nested unpacking and over enumerate()."""

import numpy as np
import warp as wp

CONFIGS = {
    "soft": (0.5, 0.1),
    "firm": (2.0, -0.2),
}
WEIGHTS = [0.25, 0.5]


def make_affine(gain, bias):
    @wp.kernel
    def affine_cfg(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = gain * x[i] + bias

    return affine_cfg


def make_tap(weight, index):
    @wp.kernel
    def tap(x: wp.array(dtype=float), y: wp.array(dtype=float)):
        i = wp.tid()
        j = wp.min(i + index, x.shape[0] - 1)
        y[i] = y[i] + weight * x[j]

    return tap


KERNELS = {}
for name, (gain, bias) in CONFIGS.items():
    KERNELS[name] = make_affine(gain, bias)

TAPS = []
for k, w in enumerate(WEIGHTS):
    TAPS.append(make_tap(w, k))

x = wp.array(np.arange(6, dtype=np.float32))
y = wp.zeros(6, dtype=float)
for kern in KERNELS.values():
    wp.launch(kern, dim=6, inputs=[x])
for tap in TAPS:
    wp.launch(tap, dim=6, inputs=[x, y])
print(x.numpy(), y.numpy())
