from collections import namedtuple
from types import SimpleNamespace

import warp as wp

Params = namedtuple("Params", ["dt", "substeps"])


def make_step(dt, substeps):
    @wp.kernel
    def step_nt(x: wp.array(dtype=float), v: wp.array(dtype=float)):
        i = wp.tid()
        for _ in range(substeps):
            x[i] = x[i] + dt * v[i]

    return step_nt


def make_band(ns):
    lo = ns.lo
    hi = ns.hi

    @wp.kernel
    def band_ns(x: wp.array(dtype=float), inside: wp.array(dtype=int)):
        i = wp.tid()
        if x[i] >= lo and x[i] <= hi:
            inside[i] = 1
        else:
            inside[i] = 0

    return band_ns


def main():
    p = Params._make([0.1, 4])
    step = make_step(**p._asdict())
    ns = SimpleNamespace(**{"lo": -1.0, "hi": 1.0})
    band = make_band(ns)
    x = wp.zeros(6, dtype=float)
    v = wp.array([-4.0, -2.0, 0.0, 1.0, 2.0, 4.0], dtype=float)
    inside = wp.zeros(6, dtype=int)
    wp.launch(step, dim=6, inputs=[x, v])
    wp.launch(band, dim=6, inputs=[x, inside])
    print(x.numpy(), inside.numpy())


if __name__ == "__main__":
    main()
