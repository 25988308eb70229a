import warp as wp


class KernelFactory:
    def __init__(self, dtype=float):
        self.dtype = dtype

    def make_gain(self, gain):
        dtype = self.dtype

        @wp.kernel
        def gain_kernel(x: wp.array(dtype=dtype)):
            i = wp.tid()
            x[i] = x[i] * dtype(gain)

        return gain_kernel


class Kernelize:
    """A class used as a decorator: `@Kernelize()` turns a def into a kernel."""

    def __init__(self, enable_backward=False):
        self.enable_backward = enable_backward

    def __call__(self, fn):
        return wp.kernel(fn, enable_backward=self.enable_backward)


FACTORY = KernelFactory()
gain3 = FACTORY.make_gain(3.0)


@Kernelize()
def square_all(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = x[i] * x[i]


x = wp.full(4, 2.0, dtype=float)
wp.launch(gain3, dim=4, inputs=[x])
wp.launch(square_all, dim=4, inputs=[x])
print(x.numpy())
