import argparse

import warp as wp


def make_op(op: str):
    @wp.kernel
    def apply(a: wp.array(dtype=float)):
        if wp.static(op == "square"):
            a[wp.tid()] = a[wp.tid()] * a[wp.tid()]
        else:
            a[wp.tid()] = -a[wp.tid()]

    return apply


def make_axpy(alpha: float, dtype=wp.float32):
    @wp.kernel
    def axpy(x: wp.array(dtype=dtype), y: wp.array(dtype=dtype)):
        y[wp.tid()] = dtype(alpha) * x[wp.tid()] + y[wp.tid()]

    return axpy


CONFIGS = {"small": {"alpha": 0.5}, "big": {"alpha": 2.0, "dtype": wp.float64}}


# Reads a global the `__main__` block sets before it launches.
@wp.kernel
def step(x: wp.array(dtype=float)):
    x[wp.tid()] = x[wp.tid()] + DT


def main():
    ops = [make_op(op) for op in ["square", "negate"]]
    axpys = {name: make_axpy(**cfg) for name, cfg in CONFIGS.items()}
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=16)
    args = parser.parse_args()
    n = args.n

    # Reads an option of `main`'s own parser: its default, as the script run with no arguments.
    @wp.kernel
    def ramp(a: wp.array(dtype=float)):
        a[wp.tid()] = float(wp.tid() % n)

    return ops, axpys, ramp


if __name__ == "__main__":
    DT = 0.25
    main()

    # Only the block's run binds `dtype`: left out, with why.
    for dtype in [wp.float32, wp.float16]:

        @wp.kernel
        def typed(a: wp.array(dtype=dtype)):
            a[wp.tid()] = dtype(0.0)
