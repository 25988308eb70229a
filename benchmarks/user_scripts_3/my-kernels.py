# quick and dirty: star import for the types, wp. inside kernels (warp resolves no bare builtins there)
import warp as wp
from warp import *  # noqa: F403

init()


@kernel
def fill_value(out: array(dtype=float32), v: float32):
    i = wp.tid()
    out[i] = v


@kernel
def axpby(x: array(dtype=float32), y: array(dtype=float32), a: float32, b: float32):
    i = wp.tid()
    y[i] = a * x[i] + b * y[i]


x = zeros(16, dtype=float32, device="cpu")
y = zeros(16, dtype=float32, device="cpu")
launch(fill_value, dim=16, inputs=[x, 2.0], device="cpu")
launch(axpby, dim=16, inputs=[x, y, 3.0, 0.5], device="cpu")
print(y.numpy()[:4])
