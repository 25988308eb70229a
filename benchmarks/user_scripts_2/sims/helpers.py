import warp as wp


@wp.struct
class Grid2D:
    nx: int
    ny: int
    h: float


@wp.func
def idx(g: Grid2D, i: int, j: int):
    return wp.clamp(i, 0, g.nx - 1) * g.ny + wp.clamp(j, 0, g.ny - 1)


@wp.func
def bilerp(f: wp.array(dtype=float), g: Grid2D, p: wp.vec2):
    x = p[0] / g.h
    y = p[1] / g.h
    i = int(wp.floor(x))
    j = int(wp.floor(y))
    fx = x - float(i)
    fy = y - float(j)
    a = wp.lerp(f[idx(g, i, j)], f[idx(g, i + 1, j)], fx)
    b = wp.lerp(f[idx(g, i, j + 1)], f[idx(g, i + 1, j + 1)], fx)
    return wp.lerp(a, b, fy)
