import contextlib
import warnings

import warp as wp

HAVE_SCIPY = False
with contextlib.suppress(ImportError):
    import scipy  # noqa: F401

    HAVE_SCIPY = True

with warnings.catch_warnings():
    warnings.simplefilter("ignore")

    @wp.kernel
    def quiet_axpy(a: float, x: wp.array(dtype=float), y: wp.array(dtype=float)):
        i = wp.tid()
        y[i] = a * x[i] + y[i]


with contextlib.suppress(ImportError):
    import not_a_real_module  # noqa: F401

    @wp.kernel
    def never_defined(x: wp.array(dtype=float)):
        x[wp.tid()] = 1.0


with contextlib.ExitStack() as stack:

    @wp.kernel
    def stacked_negate(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = -x[i]


x = wp.ones(3, dtype=float)
y = wp.zeros(3, dtype=float)
wp.launch(quiet_axpy, dim=3, inputs=[2.0, x, y])
wp.launch(stacked_negate, dim=3, inputs=[y])
print(y.numpy(), HAVE_SCIPY)
