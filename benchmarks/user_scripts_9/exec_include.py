"""An old-style include: exec(compile(open(path).read(), path, "exec")) of a file using this script's globals."""

import os

import numpy as np
import warp as wp

RADIUS = 2
EPS = 1.0e-3

_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "snippets", "smoothing_kernels.py")
with open(_path) as _f:
    exec(compile(_f.read(), _path, "exec"))

x = wp.array(np.linspace(-1, 1, 9, dtype=np.float32))
y = wp.zeros(9, dtype=float)
wp.launch(box_smooth, dim=9, inputs=[x, y])  # noqa: F821
wp.launch(safe_inverse, dim=9, inputs=[y])  # noqa: F821
print(y.numpy())
