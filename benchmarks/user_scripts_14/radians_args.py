import math

import warp as wp

ANGLE_DEG = 30.0


def make_rotate(theta):
    c = math.cos(theta)
    s = math.sin(theta)

    @wp.kernel
    def rotate_rad(p: wp.array(dtype=wp.vec2)):
        i = wp.tid()
        x = p[i][0]
        y = p[i][1]
        p[i] = wp.vec2(c * x - s * y, s * x + c * y)

    return rotate_rad


def make_scale(s, n):
    @wp.kernel
    def scale_round(a: wp.array(dtype=float)):
        i = wp.tid()
        for _ in range(n):
            a[i] = a[i] * s

    return scale_round


def main():
    p = wp.full(3, wp.vec2(1.0, 0.0), dtype=wp.vec2)
    wp.launch(make_rotate(math.radians(ANGLE_DEG)), dim=3, inputs=[p])
    a = wp.full(3, 1.0, dtype=float)
    wp.launch(make_scale(round(1.0 / 3.0, 3) + float("0.25"), abs(-2) + pow(2, 1)), dim=3, inputs=[a])
    print(p.numpy()[0], a.numpy())


if __name__ == "__main__":
    main()
