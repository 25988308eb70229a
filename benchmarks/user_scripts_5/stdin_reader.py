# usage: seq 1 10 | python stdin_reader.py   (falls back to built-in data from a terminal)
import sys

import numpy as np
import warp as wp

if not sys.stdin.isatty():
    values = [float(tok) for tok in sys.stdin.read().split()]
else:
    values = []
if not values:
    values = [1.0, 4.0, 9.0, 16.0]


@wp.kernel
def sqrt_all(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = wp.sqrt(wp.max(x[i], 0.0))


@wp.kernel
def running_mean(x: wp.array(dtype=float), alpha: float, y: wp.array(dtype=float)):
    i = wp.tid()
    acc = x[0]
    for j in range(1, i + 1):
        acc = alpha * x[j] + (1.0 - alpha) * acc
    y[i] = acc


x = wp.array(np.array(values, dtype=np.float32))
y = wp.zeros_like(x)
wp.launch(sqrt_all, dim=len(values), inputs=[x, y])
z = wp.zeros_like(x)
wp.launch(running_mean, dim=len(values), inputs=[y, 0.3, z])
print(y.numpy(), z.numpy())
