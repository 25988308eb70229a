# quick test of the new subscript array annotations
import numpy as np
import warp as wp

Real = wp.float32


@wp.kernel
def scale_sub(x: wp.array[float], y: wp.array[Real], s: float):
    i = wp.tid()
    y[i] = x[i] * s


@wp.kernel
def grid_norms(v: wp.array2d[wp.vec3], out: wp.array2d[float], vol: wp.array3d[wp.float32]):
    i, j = wp.tid()
    out[i, j] = wp.length(v[i, j]) + vol[i, j, 0]


x = wp.array(np.arange(8, dtype=np.float32), dtype=float)
y = wp.zeros(8, dtype=float)
wp.launch(scale_sub, dim=8, inputs=[x, y, 2.0])
print(y.numpy())

v = wp.array(np.ones((4, 4, 3), dtype=np.float32), dtype=wp.vec3)
out = wp.zeros((4, 4), dtype=float)
vol = wp.ones((4, 4, 2), dtype=wp.float32)
wp.launch(grid_norms, dim=(4, 4), inputs=[v, out, vol])
print(out.numpy()[0])
