import warp as wp

from sims.helpers import Grid2D  # run from the parent folder: python -m sims.rigid


@wp.kernel
def bin_bodies(g: Grid2D, pos: wp.array(dtype=wp.vec2), cell: wp.array(dtype=int)):
    tid = wp.tid()
    i = int(pos[tid][0] / g.h)
    j = int(pos[tid][1] / g.h)
    cell[tid] = wp.clamp(i, 0, g.nx - 1) * g.ny + wp.clamp(j, 0, g.ny - 1)
