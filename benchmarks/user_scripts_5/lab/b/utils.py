# group B's helpers: 3-D, same module name and function name as group A's
import warp as wp


@wp.func
def cell_of(p: wp.vec3, h: float) -> wp.vec3i:
    return wp.vec3i(int(wp.floor(p[0] / h)), int(wp.floor(p[1] / h)), int(wp.floor(p[2] / h)))


@wp.kernel
def clear_counts(counts: wp.array3d(dtype=int)):
    i, j, k = wp.tid()
    counts[i, j, k] = 0
