import numpy as np
import warp as wp

wp.init()

blur_x = None
OPS = {"add": "a + b", "mul": "a * b", "max": "wp.max(a, b)"}


def _setup_kernels(radius):
    global blur_x

    @wp.kernel
    def blur_x(img: wp.array2d(dtype=float), out: wp.array2d(dtype=float)):
        i, j = wp.tid()
        w = img.shape[1]
        acc = float(0.0)
        cnt = float(0.0)
        for d in range(-radius, radius + 1):
            jj = j + d
            if jj >= 0 and jj < w:
                acc += img[i, jj]
                cnt += 1.0
        out[i, j] = acc / cnt


def _binary(op_name):
    if op_name == "add":

        @wp.func
        def op(a: float, b: float):
            return a + b

    elif op_name == "mul":

        @wp.func
        def op(a: float, b: float):
            return a * b

    else:

        @wp.func
        def op(a: float, b: float):
            return wp.max(a, b)

    @wp.kernel
    def binary(a: wp.array(dtype=float), b: wp.array(dtype=float), c: wp.array(dtype=float)):
        i = wp.tid()
        c[i] = op(a[i], b[i])

    return binary


_setup_kernels(2)
for _name in OPS:
    globals()[f"{_name}_kernel"] = _binary(_name)

img = wp.array(np.random.rand(8, 8).astype(np.float32), device="cpu")
out = wp.zeros_like(img)
wp.launch(blur_x, dim=img.shape, inputs=[img, out], device="cpu")
a = wp.array(np.arange(4, dtype=np.float32), device="cpu")
b = wp.array(np.full(4, 2.0, dtype=np.float32), device="cpu")
c = wp.zeros(4, dtype=float, device="cpu")
wp.launch(add_kernel, dim=4, inputs=[a, b, c], device="cpu")  # noqa: F821
wp.launch(mul_kernel, dim=4, inputs=[a, b, c], device="cpu")  # noqa: F821
wp.launch(max_kernel, dim=4, inputs=[a, b, c], device="cpu")  # noqa: F821
print(out.numpy()[0, :3], c.numpy())
