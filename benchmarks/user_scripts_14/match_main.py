import argparse

import warp as wp


def make_euler(dt):
    @wp.kernel
    def euler_m(x: wp.array(dtype=float), v: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = x[i] + dt * v[i]

    return euler_m


def make_midpoint(dt):
    @wp.kernel
    def midpoint_m(x: wp.array(dtype=float), v: wp.array(dtype=float)):
        i = wp.tid()
        half = x[i] + 0.5 * dt * v[i]
        x[i] = x[i] + dt * (v[i] - 0.5 * dt * half)

    return midpoint_m


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--scheme", default="euler")
    parser.add_argument("--dt", type=float, default=0.05)
    args = parser.parse_args()
    match args.scheme:
        case "euler":
            step = make_euler(args.dt)
        case "midpoint" | "rk2":
            step = make_midpoint(args.dt)
        case _:
            raise SystemExit(f"unknown scheme {args.scheme}")
    x = wp.zeros(4, dtype=float)
    v = wp.full(4, 1.0, dtype=float)
    wp.launch(step, dim=4, inputs=[x, v])
    print(x.numpy())


if __name__ == "__main__":
    main()
