import argparse
import math

import warp as wp

WINDOWS = [3, 5, 7, 9]


def make_relax(omega):
    @wp.kernel
    def relax_cond(u: wp.array(dtype=float), target: wp.array(dtype=float)):
        i = wp.tid()
        u[i] = u[i] + omega * (target[i] - u[i])

    return relax_cond


def make_iters(n):
    @wp.kernel
    def iters_max(u: wp.array(dtype=float)):
        i = wp.tid()
        for _ in range(n):
            u[i] = 0.5 * u[i]

    return iters_max


def make_window(lo, hi):
    @wp.kernel
    def window_slice(u: wp.array(dtype=float), out: wp.array(dtype=float)):
        i = wp.tid()
        m = u.shape[0]
        s = float(0.0)
        for k in range(lo, hi):
            s += u[(i + k) % m]
        out[i] = s

    return window_slice


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fast", action="store_true")
    parser.add_argument("-n", type=int, default=6)
    args = parser.parse_args()

    relax = make_relax(0.5 if args.fast else 1.0)
    iters = make_iters(max(1, args.n // 2))
    window = make_window(*WINDOWS[:2])
    steps = round(math.log2(16))

    u = wp.zeros(8, dtype=float)
    t = wp.ones(8, dtype=float)
    out = wp.zeros(8, dtype=float)
    for _ in range(steps):
        wp.launch(relax, dim=8, inputs=[u, t])
    wp.launch(iters, dim=8, inputs=[u])
    wp.launch(window, dim=8, inputs=[u, out])
    print(u.numpy(), out.numpy())


if __name__ == "__main__":
    main()
