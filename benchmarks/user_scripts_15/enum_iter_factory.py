import enum

import warp as wp


class Blend(enum.Enum):
    SOFT = 0.25
    HARD = 0.75


class Order(enum.IntEnum):
    FIRST = 1
    SECOND = 2


def make_blend(w: float):
    @wp.kernel
    def blend_enum(a: wp.array(dtype=float), b: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = (1.0 - w) * a[i] + w * b[i]

    return blend_enum


def make_order(order: int):
    @wp.kernel
    def order_enum(x: wp.array(dtype=float), d: wp.array(dtype=float)):
        i = wp.tid()
        if i < order:
            d[i] = 0.0
        else:
            d[i] = x[i] - x[i - order]

    return order_enum


def main():
    kernels = {}
    for mode in Blend:
        kernels[mode] = make_blend(mode.value)
    diffs = [make_order(o.value) for o in Order]
    a = wp.zeros(5, dtype=float)
    b = wp.ones(5, dtype=float)
    for k in kernels.values():
        wp.launch(k, dim=5, inputs=[a, b])
    d = wp.zeros(5, dtype=float)
    for k in diffs:
        wp.launch(k, dim=5, inputs=[a, d])
    print(a.numpy(), d.numpy())


if __name__ == "__main__":
    main()
