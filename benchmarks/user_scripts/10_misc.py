import functools

import warp as wp


@functools.cache
def get_fill_kernel(dtype):
    @wp.kernel
    def fill(a: wp.array(dtype=dtype), value: dtype):
        a[wp.tid()] = value

    return fill


def get_scale_kernel(factor):
    @wp.kernel
    def scale(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] * float(factor)

    return scale


HALF = get_scale_kernel(0.5)
DOUBLE = get_scale_kernel(2)


def fill(a, value):
    wp.launch(get_fill_kernel(a.dtype), dim=a.shape, inputs=[a, value])


@wp.kernel
def iota(a: wp.array(dtype=int)):
    i = wp.tid()
    a[i] = i


if __name__ == "__main__":
    a = wp.zeros(10, dtype=wp.float32)
    fill(a, 3.0)
    fill_int = get_fill_kernel(wp.int32)
    b = wp.zeros(10, dtype=int)
    wp.launch(fill_int, dim=10, inputs=[b, 7])
    print(a, b)
