# keep this project's compiled kernels in its own cache folder, and start clean each run
import os
import tempfile

import warp as wp

wp.config.kernel_cache_dir = os.path.join(tempfile.gettempdir(), "my_warp_cache_f5")
wp.config.quiet = True
wp.config.verbose = False
wp.init()
wp.clear_kernel_cache()


@wp.kernel
def heat_step(u: wp.array(dtype=float), un: wp.array(dtype=float), k: float):
    i = wp.tid()
    n = u.shape[0]
    if i == 0 or i == n - 1:
        un[i] = u[i]
    else:
        un[i] = u[i] + k * (u[i - 1] - 2.0 * u[i] + u[i + 1])


@wp.kernel
def max_abs(u: wp.array(dtype=float), m: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_max(m, 0, wp.abs(u[i]))


u = wp.zeros(32, dtype=float)
u.fill_(1.0)
un = wp.zeros_like(u)
for _ in range(5):
    wp.launch(heat_step, dim=32, inputs=[u, un, 0.25])
    u, un = un, u
m = wp.zeros(1, dtype=float)
wp.launch(max_abs, dim=32, inputs=[u, m])
print(m.numpy(), wp.config.kernel_cache_dir)
