import os

import numpy as np
import warp as wp

HERE = os.path.dirname(os.path.abspath(__file__))
POINTS = np.loadtxt(os.path.join(HERE, "data", "points.txt"), dtype=np.float32)
NUM_POINTS = len(POINTS)


@wp.kernel
def centroid(pts: wp.array(dtype=wp.vec3), c: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    wp.atomic_add(c, 0, pts[i] / float(NUM_POINTS))


@wp.kernel
def bounds(pts: wp.array(dtype=wp.vec3), lo: wp.array(dtype=wp.vec3), hi: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    wp.atomic_min(lo, 0, pts[i])
    wp.atomic_max(hi, 0, pts[i])


if __name__ == "__main__":
    pts = wp.array(POINTS, dtype=wp.vec3)
    c = wp.zeros(1, dtype=wp.vec3)
    wp.launch(centroid, dim=NUM_POINTS, inputs=[pts, c])
    print(c)
