import dataclasses
from dataclasses import dataclass

import warp as wp


@dataclass
class SpringCfg:
    k: float = 40.0
    rest: float = 1.0


@dataclass
class DampCfg:
    c: float = 0.2


def make_spring(k: float, rest: float):
    @wp.kernel
    def spring_asdict(x: wp.array(dtype=float), f: wp.array(dtype=float)):
        i = wp.tid()
        f[i] = -k * (x[i] - rest)

    return spring_asdict


def make_damp(c: float):
    @wp.kernel
    def damp_vars(v: wp.array(dtype=float)):
        i = wp.tid()
        v[i] = v[i] * (1.0 - c)

    return damp_vars


def main():
    spring = SpringCfg(k=25.0)
    damp = DampCfg(c=0.05)
    k1 = make_spring(**dataclasses.asdict(spring))
    k2 = make_damp(**vars(damp))
    x = wp.full(4, 1.5, dtype=float)
    f = wp.zeros(4, dtype=float)
    wp.launch(k1, dim=4, inputs=[x, f])
    wp.launch(k2, dim=4, inputs=[f])
    print(f.numpy())


if __name__ == "__main__":
    main()
