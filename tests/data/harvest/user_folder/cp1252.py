import warp as wp

# Größe des Gitters – saved as cp1252, no encoding line
N = 4


@wp.kernel
def grid_fill(a: wp.array(dtype=float)):
    a[wp.tid()] = float(N)
