import warp as wp

(GX, GY), DT = (4, 3), 1.0 / 60.0
LO, *_, HI = (0.0, 0.5, 0.75, 1.0)


@wp.kernel
def grid_step(f: wp.array2d(dtype=float)):
    i, j = wp.tid()
    f[i, j] = wp.clamp(f[i, j] + DT * float(i * GY + j), LO, HI)


def make_sweep(nx=GX, ny=GY):
    cells = nx * ny

    @wp.kernel
    def sweep_cells(f: wp.array(dtype=float)):
        i = wp.tid()
        f[i] = float(i) / float(cells)

    return sweep_cells


f = wp.zeros((GX, GY), dtype=float)
wp.launch(grid_step, dim=(GX, GY), inputs=[f])
g = wp.zeros(GX * GY, dtype=float)
wp.launch(make_sweep(), dim=GX * GY, inputs=[g])
print(f.numpy().sum(), g.numpy().sum())
