from typing import Any

import warp as wp


@wp.kernel
def scale_any_main(a: wp.array(dtype=Any), s: Any):
    i = wp.tid()
    a[i] = a[i] * s


@wp.kernel
def sum_any_main(a: wp.array(dtype=Any), out: wp.array(dtype=Any)):
    i = wp.tid()
    wp.atomic_add(out, 0, a[i])


def main():
    for T in (wp.float32, wp.float64):
        wp.overload(scale_any_main, {"a": wp.array(dtype=T), "s": T})
        wp.overload(sum_any_main, [wp.array(dtype=T), wp.array(dtype=T)])
        a = wp.full(4, T(2.0), dtype=T)
        out = wp.zeros(1, dtype=T)
        wp.launch(scale_any_main, dim=4, inputs=[a, T(0.5)])
        wp.launch(sum_any_main, dim=4, inputs=[a, out])
        print(T.__name__, out.numpy())


if __name__ == "__main__":
    main()
