from typing import Any

import warp as wp


def make_scale(s: float):
    @wp.kernel
    def scale_gen(a: wp.array(dtype=Any)):
        i = wp.tid()
        a[i] = a[i] * a.dtype(s)

    wp.overload(scale_gen, {"a": wp.array(dtype=wp.float32)})
    wp.overload(scale_gen, {"a": wp.array(dtype=wp.float64)})
    return scale_gen


def make_clamp(lo: float, hi: float, dtypes=(wp.float32,)):
    @wp.kernel
    def clamp_gen(a: wp.array(dtype=Any)):
        i = wp.tid()
        a[i] = wp.clamp(a[i], a.dtype(lo), a.dtype(hi))

    for t in dtypes:
        wp.overload(clamp_gen, [wp.array(dtype=t)])
    return clamp_gen


if __name__ == "__main__":
    k = make_scale(2.0)
    c = make_clamp(0.0, 1.5, dtypes=(wp.float32, wp.float64))
    x = wp.ones(3, dtype=wp.float64)
    y = wp.ones(3, dtype=wp.float32)
    wp.launch(k, dim=3, inputs=[x])
    wp.launch(k, dim=3, inputs=[y])
    wp.launch(c, dim=3, inputs=[x])
    print(x.numpy(), y.numpy())
