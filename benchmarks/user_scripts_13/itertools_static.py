import itertools

import numpy as np
import warp as wp

CORNERS = list(itertools.product((0, 1), repeat=3))
PAIRS = list(itertools.combinations(range(4), 2))


@wp.kernel
def trilinear_corners(grid: wp.array3d(dtype=float), p: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    i = wp.tid()
    q = p[i]
    x0 = int(wp.floor(q[0]))
    y0 = int(wp.floor(q[1]))
    z0 = int(wp.floor(q[2]))
    fx = q[0] - float(x0)
    fy = q[1] - float(y0)
    fz = q[2] - float(z0)
    s = float(0.0)
    for c in range(wp.static(len(CORNERS))):
        dx = wp.static(CORNERS[c][0])
        dy = wp.static(CORNERS[c][1])
        dz = wp.static(CORNERS[c][2])
        wx = wp.where(dx == 1, fx, 1.0 - fx)
        wy = wp.where(dy == 1, fy, 1.0 - fy)
        wz = wp.where(dz == 1, fz, 1.0 - fz)
        s += wx * wy * wz * grid[x0 + dx, y0 + dy, z0 + dz]
    out[i] = s


@wp.kernel
def pair_dists(pts: wp.array2d(dtype=wp.vec2), out: wp.array2d(dtype=float)):
    b = wp.tid()
    for k in range(wp.static(len(PAIRS))):
        out[b, k] = wp.length(pts[b, wp.static(PAIRS[k][0])] - pts[b, wp.static(PAIRS[k][1])])


if __name__ == "__main__":
    g = wp.array(np.arange(27, dtype=np.float32).reshape(3, 3, 3), dtype=float)
    p = wp.array([[0.5, 0.5, 0.5], [1.0, 0.25, 0.0]], dtype=wp.vec3)
    out = wp.zeros(2, dtype=float)
    wp.launch(trilinear_corners, dim=2, inputs=[g, p, out])
    pts = wp.array(np.random.default_rng(1).random((3, 4, 2)).astype(np.float32), dtype=wp.vec2)
    d = wp.zeros((3, len(PAIRS)), dtype=float)
    wp.launch(pair_dists, dim=3, inputs=[pts, d])
    print(out.numpy(), d.numpy()[0])
