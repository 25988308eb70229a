#!/usr/bin/env python3
"""Parser built by a helper; main(argv) gets sys.argv[1:]."""
import argparse
import sys

import warp as wp


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--time-step", type=float, default="0.25", help="string default, converted by type")
    p.add_argument("--n", type=int, default=64)
    p.add_argument("--relax", dest="omega", type=float, default=1.2)
    p.set_defaults(gain=2.0)
    return p


def make_euler(dt: float):
    @wp.kernel
    def euler_dt(x: wp.array(dtype=float), v: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = x[i] + dt * v[i]

    return euler_dt


def make_sor(omega: float, gain: float):
    @wp.kernel
    def sor_gain(x: wp.array(dtype=float), target: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = (1.0 - omega) * x[i] + omega * gain * target[i]

    return sor_gain


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    x = wp.zeros(args.n, dtype=float)
    v = wp.ones(args.n, dtype=float)
    wp.launch(make_euler(args.time_step), dim=args.n, inputs=[x, v])
    wp.launch(make_sor(args.omega, args.gain), dim=args.n, inputs=[x, v])
    print(x.numpy()[:3])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
