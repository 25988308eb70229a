import numpy as np
import warp as wp


@wp.func
def square(x: float):
    return x * x


@wp.func
def cube(x: float):
    return x * x * x


def make_map(op=square, scale=1.0):
    """Kernel applying `op` elementwise (a Warp function, the default the square)."""

    @wp.kernel
    def map_op(x: wp.array(dtype=float), y: wp.array(dtype=float)):
        i = wp.tid()
        y[i] = wp.static(op)(x[i]) * scale

    return map_op


x = wp.array(np.arange(5, dtype=np.float32))
y = wp.zeros_like(x)
wp.launch(make_map(), dim=5, inputs=[x, y])
wp.launch(make_map(cube, scale=0.5), dim=5, inputs=[x, y])
print(y.numpy())
