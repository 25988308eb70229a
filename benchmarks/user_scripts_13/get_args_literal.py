from typing import Literal, get_args

import warp as wp

Mode = Literal["clamp", "wrap"]


def make_boundary(mode: Mode):
    if mode == "clamp":

        @wp.kernel
        def bnd_clamp(a: wp.array(dtype=float), out: wp.array(dtype=float), shift: int):
            i = wp.tid()
            n = a.shape[0]
            out[i] = a[wp.clamp(i + shift, 0, n - 1)]

        return bnd_clamp

    @wp.kernel
    def bnd_wrap(a: wp.array(dtype=float), out: wp.array(dtype=float), shift: int):
        i = wp.tid()
        n = a.shape[0]
        out[i] = a[(i + shift + n) % n]

    return bnd_wrap


KERNELS = {m: make_boundary(m) for m in get_args(Mode)}

if __name__ == "__main__":
    a = wp.array([0.0, 1.0, 2.0, 3.0], dtype=float)
    out = wp.zeros_like(a)
    for mode, k in KERNELS.items():
        wp.launch(k, dim=4, inputs=[a, out, 2])
        print(mode, out.numpy())
