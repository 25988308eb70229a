import os

import warp as wp

os.environ.setdefault("SIM_SUBSTEPS", "4")


def make_substeps(n):
    @wp.kernel
    def sub_loop(x: wp.array(dtype=float), v: wp.array(dtype=float), dt: float):
        i = wp.tid()
        h = dt / float(n)
        for _ in range(n):
            v[i] = v[i] - x[i] * h
            x[i] = x[i] + v[i] * h

    return sub_loop


def make_advance(dt):
    @wp.kernel
    def advance_dt(x: wp.array(dtype=float), v: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = x[i] + dt * v[i]

    return advance_dt


def main():
    substeps = int(os.environ["SIM_SUBSTEPS"])
    dt = float(os.getenv("SIM_DT") or "0.01")
    x = wp.full(4, 1.0, dtype=float)
    v = wp.zeros(4, dtype=float)
    wp.launch(make_substeps(substeps), dim=4, inputs=[x, v, 0.1])
    wp.launch(make_advance(dt), dim=4, inputs=[x, v])
    print(x.numpy(), v.numpy())


if __name__ == "__main__":
    main()
