# saves its point cloud to points.npy on the first run and loads it back
import os

import numpy as np
import warp as wp

if not os.path.exists("points.npy"):
    np.save("points.npy", np.random.default_rng(3).normal(size=(100, 3)).astype(np.float32))

pts_np = np.load("points.npy")
weights_np = np.linspace(0.0, 1.0, len(pts_np), dtype=np.float32)


@wp.kernel
def center_points(pts: wp.array(dtype=wp.vec3), c: wp.vec3):
    i = wp.tid()
    pts[i] = pts[i] - c


@wp.kernel
def scale_points(pts: wp.array(dtype=wp.vec3), w: wp.array(dtype=float), out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    out[i] = pts[i] * w[i]


pts = wp.array(pts_np, dtype=wp.vec3)
w = wp.from_numpy(weights_np, dtype=wp.float32)
c = pts_np.mean(axis=0)
wp.launch(center_points, dim=len(pts), inputs=[pts, wp.vec3(*c)])
out = wp.empty_like(pts)
wp.launch(scale_points, dim=len(pts), inputs=[pts, w, out])
print(out.numpy()[:2])
