import numpy as np
import warp as w

w.init()


@w.kernel
def add_one(a: w.array(dtype=float)):
    i = w.tid()
    a[i] = a[i] + 1.0


@w.kernel
def square_into(src: w.array(dtype=float), dst: w.array(dtype=float)):
    i = w.tid()
    dst[i] = src[i] * src[i]


a = w.array(np.arange(8, dtype=np.float32), device="cpu")
b = w.zeros_like(a)
w.launch(add_one, dim=8, inputs=[a], device="cpu")
w.launch(square_into, dim=8, inputs=[a, b], device="cpu")
print(b.numpy())
