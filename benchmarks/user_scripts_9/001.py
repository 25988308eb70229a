"""Globals written with annotations, unpacking and chained assignment."""

from typing import Final

import numpy as np
import warp as wp

DT: float = 0.01
N_SUB: Final[int] = 4
GRAVITY: Final = -9.81
NX, NY = 8, 4
LO = FLOOR = -1.0
(SPRING, DAMP) = (40.0, 0.5)


@wp.kernel
def step_annotated(y: wp.array(dtype=float), v: wp.array(dtype=float)):
    i = wp.tid()
    for _ in range(N_SUB):
        v[i] = v[i] + GRAVITY * DT - SPRING * y[i] * DT - DAMP * v[i] * DT
        y[i] = wp.max(y[i] + v[i] * DT, FLOOR)


@wp.kernel
def grid_index_unpacked(out: wp.array2d(dtype=int)):
    i, j = wp.tid()
    if i < NX and j < NY:
        out[i, j] = i * NY + j
    else:
        out[i, j] = int(LO)


y = wp.array(np.linspace(0.0, 1.0, 16, dtype=np.float32), dtype=float)
v = wp.zeros(16, dtype=float)
wp.launch(step_annotated, dim=16, inputs=[y, v])
grid = wp.zeros((NX, NY), dtype=int)
wp.launch(grid_index_unpacked, dim=(NX, NY), inputs=[grid])
print(y.numpy()[:4], grid.numpy()[1])
