import numpy as np
import warp as wp

# per-kernel options instead of wp.set_module_options


@wp.kernel(module="unique", module_options={"fast_math": True})
def fast_exp(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = wp.exp(x[i]) - 1.0


@wp.kernel(module="shared_group")
def grouped_add(a: wp.array(dtype=float), b: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = a[i] + b[i]


@wp.kernel(grid_stride=False)
def lean_fill(a: wp.array(dtype=int), value: int):
    a[wp.tid()] = value


@wp.kernel(launch_bounds=256, enable_backward=False)
def bounded_scale(a: wp.array(dtype=float), s: float):
    i = wp.tid()
    a[i] = a[i] * s


x = wp.array(np.linspace(0.0, 1.0, 32, dtype=np.float32))
y = wp.zeros_like(x)
wp.launch(fast_exp, dim=32, inputs=[x, y])
wp.launch(grouped_add, dim=32, inputs=[y, x])
ints = wp.zeros(32, dtype=int)
wp.launch(lean_fill, dim=32, inputs=[ints, 7])
wp.launch(bounded_scale, dim=32, inputs=[y, 0.5], block_dim=128)
print(y.numpy()[:3], ints.numpy()[:3])
