# group A's helpers: 2-D
import warp as wp


@wp.func
def cell_of(p: wp.vec2, h: float) -> wp.vec2i:
    return wp.vec2i(int(wp.floor(p[0] / h)), int(wp.floor(p[1] / h)))


@wp.kernel
def clear_counts(counts: wp.array2d(dtype=int)):
    i, j = wp.tid()
    counts[i, j] = 0
