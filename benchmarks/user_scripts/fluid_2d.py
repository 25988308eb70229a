"""Stable fluids on a small grid (semi-Lagrangian advection)."""

import warp as wp

N = 64
DT = 0.1


@wp.func
def sample(f: wp.array2d(dtype=float), x: int, y: int):
    x = wp.clamp(x, 0, N - 1)
    y = wp.clamp(y, 0, N - 1)
    return f[x, y]


@wp.func
def bilinear(f: wp.array2d(dtype=float), p: wp.vec2):
    i = int(wp.floor(p[0]))
    j = int(wp.floor(p[1]))
    fx = p[0] - float(i)
    fy = p[1] - float(j)
    a = wp.lerp(sample(f, i, j), sample(f, i + 1, j), fx)
    b = wp.lerp(sample(f, i, j + 1), sample(f, i + 1, j + 1), fx)
    return wp.lerp(a, b, fy)


def create_advect_kernel(order):
    @wp.kernel
    def advect(
        u: wp.array2d(dtype=wp.vec2), f0: wp.array2d(dtype=float), f1: wp.array2d(dtype=float)
    ):
        i, j = wp.tid()
        p = wp.vec2(float(i), float(j))
        if wp.static(order == 1):
            p = p - u[i, j] * DT
        else:
            mid = p - u[i, j] * (0.5 * DT)
            p = p - bilinear_vel(u, mid) * DT
        f1[i, j] = bilinear(f0, p)

    return advect


@wp.func
def bilinear_vel(u: wp.array2d(dtype=wp.vec2), p: wp.vec2):
    i = wp.clamp(int(p[0]), 0, N - 1)
    j = wp.clamp(int(p[1]), 0, N - 1)
    return u[i, j]


@wp.kernel
def divergence(u: wp.array2d(dtype=wp.vec2), div: wp.array2d(dtype=float)):
    i, j = wp.tid()
    if i == 0 or j == 0 or i == N - 1 or j == N - 1:
        return
    dx = (u[i + 1, j][0] - u[i - 1, j][0]) * 0.5
    dy = (u[i, j + 1][1] - u[i, j - 1][1]) * 0.5
    div[i, j] = dx + dy


if __name__ == "__main__":
    advect1 = create_advect_kernel(1)
    advect2 = create_advect_kernel(order=2)
    u = wp.zeros((N, N), dtype=wp.vec2)
    f0 = wp.zeros((N, N), dtype=float)
    f1 = wp.zeros_like(f0)
    for step in range(10):
        wp.launch(advect2, dim=(N, N), inputs=[u, f0, f1])
        f0, f1 = f1, f0
