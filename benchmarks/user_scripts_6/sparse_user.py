# a user kernel filling BSR triplets for warp.sparse, then bsr_mv
import numpy as np
import warp as wp
import warp.sparse as sp


@wp.kernel
def assemble_laplacian(rows: wp.array(dtype=int), cols: wp.array(dtype=int), vals: wp.array(dtype=float)):
    i = wp.tid()
    rows[3 * i] = i
    cols[3 * i] = i
    vals[3 * i] = 2.0
    rows[3 * i + 1] = i
    cols[3 * i + 1] = wp.max(i - 1, 0)
    vals[3 * i + 1] = wp.where(i > 0, -1.0, 0.0)
    rows[3 * i + 2] = i
    cols[3 * i + 2] = wp.min(i + 1, 7)
    vals[3 * i + 2] = wp.where(i < 7, -1.0, 0.0)


n = 8
rows = wp.zeros(3 * n, dtype=int)
cols = wp.zeros(3 * n, dtype=int)
vals = wp.zeros(3 * n, dtype=float)
wp.launch(assemble_laplacian, dim=n, inputs=[rows, cols, vals])
A = sp.bsr_zeros(n, n, block_type=wp.float32)
sp.bsr_set_from_triplets(A, rows, cols, vals)
x = wp.array(np.ones(n, dtype=np.float32))
print(sp.bsr_mv(A, x).numpy())
