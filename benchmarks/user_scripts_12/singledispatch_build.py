import functools

import warp as wp


@functools.singledispatch
def build_fill(value):
    raise TypeError(type(value))


@build_fill.register
def _(value: float):
    @wp.kernel
    def fill_float(a: wp.array(dtype=float)):
        a[wp.tid()] = value

    return fill_float


@build_fill.register(int)
def _fill_int(value):
    @wp.kernel
    def fill_int(a: wp.array(dtype=int)):
        a[wp.tid()] = value

    return fill_int


if __name__ == "__main__":
    f = wp.zeros(4, dtype=float)
    n = wp.zeros(4, dtype=int)
    wp.launch(build_fill(2.5), dim=4, inputs=[f])
    wp.launch(build_fill(7), dim=4, inputs=[n])
    print(f.numpy(), n.numpy())
