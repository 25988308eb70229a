"""Cloth demo. Run from anywhere: python "apps/cloth demo.py"."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import warp as wp  # noqa: E402

import utils  # noqa: E402

GRID = 8


@wp.kernel
def init_grid(x: wp.array2d(dtype=wp.vec3), spacing: float):
    i, j = wp.tid()
    x[i, j] = wp.vec3(float(i) * spacing, 1.0, float(j) * spacing)


@wp.kernel
def relax_structural(x: wp.array2d(dtype=wp.vec3), rest: float, out: wp.array2d(dtype=wp.vec3)):
    i, j = wp.tid()
    p = x[i, j]
    delta = wp.vec3(0.0)
    if i + 1 < GRID:
        delta += utils.spring_force(p, x[i + 1, j], rest, 0.5)
    if j + 1 < GRID:
        delta += utils.spring_force(p, x[i, j + 1], rest, 0.5)
    if i > 0:
        delta += utils.spring_force(p, x[i - 1, j], rest, 0.5)
    if j > 0:
        delta += utils.spring_force(p, x[i, j - 1], rest, 0.5)
    out[i, j] = p + delta + utils.GRAVITY * 0.0001


def main():
    with wp.ScopedDevice("cpu"):
        x = wp.zeros((GRID, GRID), dtype=wp.vec3)
        y = wp.zeros_like(x)
        wp.launch(init_grid, dim=(GRID, GRID), inputs=[x, 0.1])
        for _ in range(5):
            wp.launch(relax_structural, dim=(GRID, GRID), inputs=[x, 0.1, y])
            x, y = y, x
        print(x.numpy()[GRID - 1, GRID - 1])


if __name__ == "__main__":
    main()
