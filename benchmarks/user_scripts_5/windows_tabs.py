# written on Windows: BOM, tabs and CRLF line ends
import numpy as np
import warp as wp


@wp.func
def hat(x: float) -> float:
	return wp.max(0.0, 1.0 - wp.abs(x))


@wp.kernel
def tabbed_splat(pos: wp.array(dtype=float), grid: wp.array(dtype=float), h: float):
	i = wp.tid()
	cell = int(pos[i] / h)
	for k in range(cell - 1, cell + 2):
		if k >= 0 and k < grid.shape[0]:
			wp.atomic_add(grid, k, hat(pos[i] / h - float(k)))


@wp.kernel
def tabbed_normalize(grid: wp.array(dtype=float), total: float):
	i = wp.tid()
	if total > 0.0:
		grid[i] = grid[i] / total


if __name__ == "__main__":
	pos = wp.array(np.random.rand(50).astype(np.float32))
	grid = wp.zeros(11, dtype=float)
	wp.launch(tabbed_splat, dim=50, inputs=[pos, grid, 0.1])
	wp.launch(tabbed_normalize, dim=11, inputs=[grid, float(grid.numpy().sum())])
	print(grid.numpy())
