import warp as wp

NX, NY, NZ = 64, 64, 32


@wp.kernel
def laplacian2d(u: wp.array2d(dtype=float), out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    nx = u.shape[0]
    ny = u.shape[1]
    if i == 0 or j == 0 or i == nx - 1 or j == ny - 1:
        out[i, j] = 0.0
        return
    out[i, j] = u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - 4.0 * u[i, j]


@wp.kernel
def diffuse3d(u: wp.array3d(dtype=float), v: wp.array3d(dtype=float), k: float):
    i, j, l = wp.tid()
    i0 = wp.max(i - 1, 0)
    i1 = wp.min(i + 1, u.shape[0] - 1)
    j0 = wp.max(j - 1, 0)
    j1 = wp.min(j + 1, u.shape[1] - 1)
    l0 = wp.max(l - 1, 0)
    l1 = wp.min(l + 1, u.shape[2] - 1)
    lap = u[i0, j, l] + u[i1, j, l] + u[i, j0, l] + u[i, j1, l] + u[i, j, l0] + u[i, j, l1] - 6.0 * u[i, j, l]
    v[i, j, l] = u[i, j, l] + k * lap


@wp.kernel
def sphere_sdf(field: wp.array3d(dtype=float), center: wp.vec3, radius: float, h: float):
    i, j, k = wp.tid()
    p = wp.vec3(float(i), float(j), float(k)) * h
    field[i, j, k] = wp.length(p - center) - radius


@wp.kernel
def image_blur(src: wp.array2d(dtype=wp.vec4), dst: wp.array2d(dtype=wp.vec4)):
    x, y = wp.tid()
    acc = wp.vec4()
    n = 0
    for dx in range(-1, 2):
        for dy in range(-1, 2):
            xx = wp.clamp(x + dx, 0, src.shape[0] - 1)
            yy = wp.clamp(y + dy, 0, src.shape[1] - 1)
            acc += src[xx, yy]
            n += 1
    dst[x, y] = acc / float(n)


def run():
    u = wp.zeros((NX, NY, NZ), dtype=float)
    v = wp.zeros_like(u)
    wp.launch(sphere_sdf, dim=(NX, NY, NZ), inputs=[u, wp.vec3(0.5), 0.25, 1.0 / NX])
    for _ in range(10):
        wp.launch(diffuse3d, dim=u.shape, inputs=[u, v, 0.1])
        u, v = v, u


if __name__ == "__main__":
    run()
