# a library folder whose name is not a package name ("lib-v2"), put on sys.path by hand
import os
import sys

sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib-v2"))

import numpy as np  # noqa: E402
import warp as wp  # noqa: E402
from ops_v2 import huber, huber_loss  # noqa: E402


@wp.kernel
def huber_grad_fd(r: wp.array(dtype=float), delta: float, g: wp.array(dtype=float)):
    i = wp.tid()
    h = 1.0e-3
    g[i] = (huber(r[i] + h, delta) - huber(r[i] - h, delta)) / (2.0 * h)


r = wp.array(np.linspace(-3, 3, 7, dtype=np.float32))
loss = wp.zeros(1, dtype=float)
wp.launch(huber_loss, dim=7, inputs=[r, 1.0, loss])
g = wp.zeros_like(r)
wp.launch(huber_grad_fd, dim=7, inputs=[r, 1.0, g])
print(loss.numpy(), g.numpy())
