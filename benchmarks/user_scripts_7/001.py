# quick test: the laziest names there are
import numpy as np
import warp as wp

wp.init()


@wp.kernel
def kernel(input: wp.array(dtype=float), type: int, out: wp.array(dtype=float)):
    tid = wp.tid()
    len = input[tid]
    if type == 1:
        out[tid] = len * len
    else:
        out[tid] = -len


@wp.kernel
def k(a: wp.array(dtype=float), id: int):
    i = wp.tid()
    min = a[i]
    a[i] = min + float(id)


x = wp.array(np.arange(8, dtype=np.float32))
y = wp.zeros(8, dtype=float)
wp.launch(kernel, dim=8, inputs=[x, 1, y])
wp.launch(k, dim=8, inputs=[y, 3])
print(y.numpy())
