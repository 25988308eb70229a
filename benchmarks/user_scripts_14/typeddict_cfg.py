from typing import TypedDict

import warp as wp


class SpringCfg(TypedDict):
    k: float
    rest: float


class DampCfg(TypedDict, total=False):
    c: float


def make_spring(k, rest):
    @wp.kernel
    def spring_td(x: wp.array(dtype=float), f: wp.array(dtype=float)):
        i = wp.tid()
        f[i] = -k * (x[i] - rest)

    return spring_td


def make_damp(c=0.1):
    @wp.kernel
    def damp_td(v: wp.array(dtype=float)):
        i = wp.tid()
        v[i] = v[i] * (1.0 - c)

    return damp_td


def main():
    spring: SpringCfg = SpringCfg(k=4.0, rest=1.0)
    damp: DampCfg = {"c": 0.3}
    x = wp.full(4, 1.5, dtype=float)
    f = wp.zeros(4, dtype=float)
    wp.launch(make_spring(**spring), dim=4, inputs=[x, f])
    wp.launch(make_damp(**damp), dim=4, inputs=[f])
    print(f.numpy())


if __name__ == "__main__":
    main()
