# kernels made in a context manager, a generator and a lambda
import contextlib

import warp as wp


@contextlib.contextmanager
def scratch_kernel(scale):
    @wp.kernel
    def scaled_copy(src: wp.array(dtype=float), dst: wp.array(dtype=float)):
        i = wp.tid()
        dst[i] = src[i] * scale

    tmp = wp.zeros(4, dtype=float)
    yield scaled_copy, tmp
    tmp.zero_()


def clampers(bounds):
    for lo, hi in bounds:

        @wp.kernel
        def clamp_range(x: wp.array(dtype=float)):
            i = wp.tid()
            x[i] = wp.clamp(x[i], lo, hi)

        yield (lo, hi), clamp_range


def _offset_kernel(offset):
    @wp.kernel
    def add_offset(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = x[i] + offset

    return add_offset


make_shift = lambda d: _offset_kernel(float(d))  # noqa: E731

src = wp.full(4, 3.0, dtype=float)
with scratch_kernel(0.5) as (kern, tmp):
    wp.launch(kern, dim=4, inputs=[src, tmp])
    print(tmp.numpy())

for (lo, hi), k in clampers([(0.0, 1.0), (-2.0, 2.0)]):
    x = wp.full(4, 5.0, dtype=float)
    wp.launch(k, dim=4, inputs=[x])
    print(lo, hi, x.numpy()[0])

shift = make_shift(7)
wp.launch(shift, dim=4, inputs=[src])
print(src.numpy())
