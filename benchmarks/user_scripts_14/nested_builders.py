import functools

import warp as wp


def make_scale(s):
    @wp.kernel
    def scale_nested(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] * s

    return scale_nested


def make_shift(x, offset=0.0):
    @wp.kernel
    def shift_partial(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] + x + offset

    return shift_partial


def main():
    def build(g):
        return make_scale(g * 2.0)

    kernels = [build(g) for g in (0.5, 1.5)]
    builders = {"shift": functools.partial(make_shift, offset=2.0)}
    kernels.append(builders["shift"](1.0))

    a = wp.full(4, 1.0, dtype=float)
    for k in kernels:
        wp.launch(k, dim=4, inputs=[a])
    print(a.numpy())


if __name__ == "__main__":
    main()
