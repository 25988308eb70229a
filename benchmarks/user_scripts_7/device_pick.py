import numpy as np
import warp as wp

device = "cuda:0" if wp.is_cuda_available() else "cpu"
print("running on", wp.get_device(device), "preferred", wp.get_preferred_device())


@wp.kernel
def heat_1d(u: wp.array(dtype=float), u_new: wp.array(dtype=float), alpha: float):
    i = wp.tid()
    n = u.shape[0]
    if i == 0 or i == n - 1:
        u_new[i] = u[i]
        return
    u_new[i] = u[i] + alpha * (u[i - 1] - 2.0 * u[i] + u[i + 1])


@wp.kernel
def max_change(a: wp.array(dtype=float), b: wp.array(dtype=float), m: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_max(m, 0, wp.abs(a[i] - b[i]))


u = wp.array(np.sin(np.linspace(0, np.pi, 64)).astype(np.float32), device=device)
v = wp.empty_like(u)
for _ in range(10):
    wp.launch(heat_1d, dim=u.shape, inputs=[u, v, 0.25], device=device)
    u, v = v, u
m = wp.zeros(1, dtype=float, device=device)
wp.launch(max_change, dim=len(u), inputs=[u, v, m], device=wp.get_device(device))
print(m.numpy())
