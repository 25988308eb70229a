import warp
from warp import kernel as warp_kernel

jit = warp.kernel


@jit
def ramp(a: warp.array(dtype=float)):
    i = warp.tid()
    a[i] = float(i)


@warp_kernel
def double_it(a: warp.array(dtype=float)):
    i = warp.tid()
    a[i] = 2.0 * a[i]


@warp.kernel(enable_backward=False)
def shift(a: warp.array(dtype=float), s: float):
    a[warp.tid()] += s


a = warp.zeros(5, dtype=float, device="cpu")
warp.launch(ramp, dim=5, inputs=[a], device="cpu")
warp.launch(double_it, dim=5, inputs=[a], device="cpu")
warp.launch(shift, dim=5, inputs=[a, 1.0], device="cpu")
print(a.numpy())
