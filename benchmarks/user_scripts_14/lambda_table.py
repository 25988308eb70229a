"""Factories that tabulate a Python function given to them (a lambda, math.cos)."""

import math

import warp as wp


def make_lut(fn, n):
    table = [fn(k / (n - 1)) for k in range(n)]

    @wp.kernel
    def lut_eval(x: wp.array(dtype=float), y: wp.array(dtype=float)):
        i = wp.tid()
        t = wp.clamp(x[i], 0.0, 1.0) * float(n - 1)
        k = int(t)
        acc = float(0.0)
        for j in range(wp.static(n)):
            if j == k:
                acc = wp.static(table[j])  # noqa
        y[i] = acc

    return lut_eval


def make_curve(fn, order):
    coeffs = [fn(0.5 * k) for k in range(order)]

    @wp.kernel
    def curve_poly(x: wp.array(dtype=float), y: wp.array(dtype=float)):
        i = wp.tid()
        acc = float(0.0)
        for k in range(wp.static(order)):
            acc = acc * x[i] + wp.static(coeffs[k])
        y[i] = acc

    return curve_poly


def main():
    x = wp.array([0.0, 0.3, 0.7, 1.0], dtype=float)
    y = wp.zeros(4, dtype=float)
    wp.launch(make_lut(lambda t: t * t, 5), dim=4, inputs=[x, y])
    wp.launch(make_curve(math.cos, 4), dim=4, inputs=[x, y])
    print(y.numpy())


if __name__ == "__main__":
    main()
