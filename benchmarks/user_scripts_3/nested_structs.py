import warp as wp


@wp.struct
class Bounds:
    lo: wp.vec3
    hi: wp.vec3


@wp.struct
class Cell:
    bounds: Bounds
    count: int


@wp.struct
class Grid:
    cells: wp.array(dtype=Cell)
    spacing: float


@wp.func
def inside(b: Bounds, p: wp.vec3) -> bool:
    return p[0] >= b.lo[0] and p[0] <= b.hi[0] and p[1] >= b.lo[1] and p[1] <= b.hi[1]


@wp.kernel
def bin_points(grid: Grid, pts: wp.array(dtype=wp.vec3), counts: wp.array(dtype=int)):
    tid = wp.tid()
    p = pts[tid]
    for c in range(grid.cells.shape[0]):
        if inside(grid.cells[c].bounds, p):
            wp.atomic_add(counts, c, 1)


@wp.kernel
def init_cells(cells: wp.array(dtype=Cell), h: float):
    c = wp.tid()
    b = Bounds()
    b.lo = wp.vec3(float(c) * h, 0.0, 0.0)
    b.hi = wp.vec3(float(c + 1) * h, h, h)
    cell = Cell()
    cell.bounds = b
    cell.count = 0
    cells[c] = cell


cells = wp.zeros(4, dtype=Cell, device="cpu")
wp.launch(init_cells, dim=4, inputs=[cells, 1.0], device="cpu")
g = Grid()
g.cells = cells
g.spacing = 1.0
pts = wp.array([[0.5, 0.5, 0.0], [1.5, 0.2, 0.0], [3.9, 0.9, 0.0]], dtype=wp.vec3, device="cpu")
counts = wp.zeros(4, dtype=int, device="cpu")
wp.launch(bin_points, dim=3, inputs=[g, pts, counts], device="cpu")
print(counts.numpy())
