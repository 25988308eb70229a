from typing import NamedTuple

import warp as wp


class Params(NamedTuple):
    dt: float = 0.01
    substeps: int = 4
    gravity: float = -9.8


def make_euler(dt: float, g: float):
    @wp.kernel
    def euler_nt(v: wp.array(dtype=float), x: wp.array(dtype=float)):
        i = wp.tid()
        v[i] = v[i] + g * dt
        x[i] = x[i] + v[i] * dt

    return euler_nt


def make_substeps(n: int):
    @wp.kernel
    def sub_nt(x: wp.array(dtype=float)):
        i = wp.tid()
        for _ in range(n):
            x[i] = 0.5 * x[i]

    return sub_nt


def main():
    p = Params(dt=0.02)
    fine = p._replace(substeps=8)
    step = make_euler(p.dt, p.gravity)
    halve = make_substeps(fine.substeps)
    v = wp.zeros(3, dtype=float)
    x = wp.ones(3, dtype=float)
    wp.launch(step, dim=3, inputs=[v, x])
    wp.launch(halve, dim=3, inputs=[x])
    print(x.numpy())


if __name__ == "__main__":
    main()
