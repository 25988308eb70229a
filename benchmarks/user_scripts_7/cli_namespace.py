"""argparse at the top, its values baked into the kernels with wp.static."""
import argparse
import enum
import types

import numpy as np
import warp as wp

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--dt", type=float, default=0.05)
parser.add_argument("--substeps", type=int, default=4)
parser.add_argument("--boundary", choices=["wrap", "clamp"], default="clamp")
args = parser.parse_known_args()[0]

grid = types.SimpleNamespace(nx=16, ny=8, spacing=0.5)


class Boundary(enum.IntEnum):
    WRAP = 0
    CLAMP = 1


BOUNDARY = Boundary.CLAMP if args.boundary == "clamp" else Boundary.WRAP


@wp.kernel
def advance(x: wp.array(dtype=float), v: wp.array(dtype=float), mode: int):
    i = wp.tid()
    for _ in range(wp.static(args.substeps)):
        x[i] = x[i] + v[i] * wp.static(args.dt / args.substeps)
    if mode == Boundary.CLAMP:
        x[i] = wp.clamp(x[i], 0.0, 1.0)
    elif mode == Boundary.WRAP:
        x[i] = x[i] - wp.floor(x[i])


@wp.kernel
def cell_centers(out: wp.array(dtype=wp.vec2)):
    i, j = wp.tid()
    h = wp.static(grid.spacing)
    out[i * wp.static(grid.ny) + j] = wp.vec2((float(i) + 0.5) * h, (float(j) + 0.5) * h)


x = wp.array(np.linspace(0, 1, 10, dtype=np.float32))
v = wp.array(np.ones(10, dtype=np.float32))
wp.launch(advance, dim=10, inputs=[x, v, int(BOUNDARY)])
c = wp.zeros(grid.nx * grid.ny, dtype=wp.vec2)
wp.launch(cell_centers, dim=(grid.nx, grid.ny), inputs=[c])
print(x.numpy()[-1], c.numpy()[-1])
