"""Array types kept on a class used as a namespace (a: T.Points), and `from warp import types as wt`."""

import numpy as np
import warp as wp
from warp import types as wt


class T:
    Points = wp.array(dtype=wp.vec3)
    Scalars = wp.array(dtype=wp.float32)
    Mat = wp.mat33
    Vec6 = wt.vector(length=6, dtype=wp.float32)


@wp.kernel
def transform_points(p: T.Points, m: T.Mat, out: T.Points):
    i = wp.tid()
    out[i] = m * p[i]


@wp.kernel
def twist_norms(tw: wp.array(dtype=T.Vec6), out: T.Scalars):
    i = wp.tid()
    t = tw[i]
    out[i] = wp.float32(wp.sqrt(wp.dot(t, t)))


p = wp.array(np.ones((3, 3), dtype=np.float32), dtype=wp.vec3)
out = wp.zeros(3, dtype=wp.vec3)
wp.launch(transform_points, dim=3, inputs=[p, wp.mat33(*np.eye(3).flatten().tolist()), out])
tw = wp.array(np.ones((2, 6), dtype=np.float32), dtype=T.Vec6)
n = wp.zeros(2, dtype=float)
wp.launch(twist_norms, dim=2, inputs=[tw, n])
print(out.numpy()[0], n.numpy())
