# pass Warp's own builtins around like functions
import numpy as np
import warp as wp


def make_unary(op):
    @wp.kernel
    def unary(x: wp.array(dtype=float), y: wp.array(dtype=float)):
        i = wp.tid()
        y[i] = op(x[i])

    return unary


@wp.func
def square(v: float):
    return v * v


OPS = [wp.sin, wp.cos, wp.abs]


@wp.kernel
def apply_ops_table(x: wp.array(dtype=float), y: wp.array(dtype=float, ndim=2)):
    i = wp.tid()
    for j in range(wp.static(len(OPS))):
        y[j, i] = wp.static(OPS[j])(x[i])


x = wp.array(np.linspace(-1.0, 1.0, 16, dtype=np.float32))
y = wp.zeros(16, dtype=float)
for op in (wp.sin, square):
    wp.launch(make_unary(op), dim=16, inputs=[x, y])
table = wp.zeros((len(OPS), 16), dtype=float)
wp.launch(apply_ops_table, dim=16, inputs=[x, table])
print(y.numpy()[:4], table.numpy()[:, 0])
