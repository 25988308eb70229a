# saxpy in a few precisions
import numpy as np
import warp as wp

wp.init()


@wp.kernel
def saxpy(x: wp.array(dtype=float), y: wp.array(dtype=float), a: float):
    i = wp.tid()
    y[i] = a * x[i] + y[i]


def make_axpy(dtype):
    @wp.kernel
    def axpy(x: wp.array(dtype=dtype), y: wp.array(dtype=dtype), a: dtype):
        i = wp.tid()
        y[i] = a * x[i] + y[i]

    return axpy


axpy_f32 = make_axpy(wp.float32)
axpy_f64 = make_axpy(wp.float64)
axpy_f16 = make_axpy(wp.float16)

if __name__ == "__main__":
    n = 1024
    x = wp.array(np.arange(n, dtype=np.float32), dtype=float)
    y = wp.zeros(n, dtype=float)
    wp.launch(saxpy, dim=n, inputs=[x, y, 2.0])
    wp.launch(axpy_f32, dim=n, inputs=[x, y, 2.0])
    print(y.numpy()[:4])
