import numpy as np
import warp as wp
from utils import cell_of, clear_counts


@wp.kernel
def bin_points_3d(pts: wp.array(dtype=wp.vec3), h: float, counts: wp.array3d(dtype=int)):
    i = wp.tid()
    c = cell_of(pts[i], h)
    if c[0] >= 0 and c[0] < counts.shape[0] and c[1] >= 0 and c[1] < counts.shape[1] and c[2] >= 0 and c[2] < counts.shape[2]:
        wp.atomic_add(counts, c[0], c[1], c[2], 1)


if __name__ == "__main__":
    pts = wp.array(np.random.rand(100, 3).astype(np.float32), dtype=wp.vec3)
    counts = wp.empty((2, 2, 2), dtype=int)
    wp.launch(clear_counts, dim=counts.shape, inputs=[counts])
    wp.launch(bin_points_3d, dim=100, inputs=[pts, 0.5, counts])
    print(counts.numpy().sum())
