import warp as wp

# Größe des Gitters – from my notes ("quotes")
GRID = 128


@wp.kernel
def gitter_init(a: wp.array2d(dtype=float)):
    i, j = wp.tid()
    a[i, j] = float(i * GRID + j)


@wp.kernel
def gitter_max(a: wp.array2d(dtype=float), m: wp.array(dtype=float)):
    i, j = wp.tid()
    wp.atomic_max(m, 0, a[i, j])
