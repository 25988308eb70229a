from enum import StrEnum
from typing import Literal

import warp as wp

Norm = Literal["l1", "l2"]


class Reduce(StrEnum):
    SUM = "sum"
    MAX = "max"


def make_norm(kind: Norm = "l2"):
    if kind == "l1":

        @wp.kernel
        def norm_l1(a: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
            i = wp.tid()
            v = a[i]
            out[i] = wp.abs(v[0]) + wp.abs(v[1]) + wp.abs(v[2])

        return norm_l1

    @wp.kernel
    def norm_l2(a: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
        i = wp.tid()
        out[i] = wp.length(a[i])

    return norm_l2


def make_reduce(op: Reduce):
    use_max = op == Reduce.MAX

    @wp.kernel
    def reduce_into(a: wp.array(dtype=float), out: wp.array(dtype=float)):
        i = wp.tid()
        if wp.static(use_max):
            wp.atomic_max(out, 0, a[i])
        else:
            wp.atomic_add(out, 0, a[i])

    return reduce_into


if __name__ == "__main__":
    a = wp.ones(4, dtype=wp.vec3)
    n = wp.zeros(4, dtype=float)
    for k in ("l1", "l2"):
        wp.launch(make_norm(k), dim=4, inputs=[a, n])
    out = wp.zeros(1, dtype=float)
    wp.launch(make_reduce(Reduce("max")), dim=4, inputs=[n, out])
    wp.launch(make_reduce(Reduce.SUM), dim=4, inputs=[n, out])
    print(out.numpy())
