# writes a USD file only when asked (--usd), which needs pxr; the simulation runs either way
import argparse

import numpy as np
import warp as wp
import warp.render


@wp.kernel
def bounce(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), dt: float, restitution: float):
    i = wp.tid()
    v[i] = v[i] + wp.vec3(0.0, -9.8, 0.0) * dt
    p = x[i] + v[i] * dt
    if p[1] < 0.0:
        p = wp.vec3(p[0], -p[1], p[2])
        v[i] = wp.vec3(v[i][0], -v[i][1] * restitution, v[i][2])
    x[i] = p


parser = argparse.ArgumentParser()
parser.add_argument("--usd", default=None)
args = parser.parse_known_args()[0]

renderer = None
if args.usd:
    renderer = warp.render.UsdRenderer(args.usd)

x = wp.array(np.random.rand(20, 3).astype(np.float32) + np.array([0, 1, 0], dtype=np.float32), dtype=wp.vec3)
v = wp.zeros(20, dtype=wp.vec3)
for frame in range(30):
    wp.launch(bounce, dim=20, inputs=[x, v, 1.0 / 60.0, 0.7])
    if renderer is not None:
        renderer.begin_frame(frame / 60.0)
        renderer.render_points("balls", x.numpy(), radius=0.05)
        renderer.end_frame()
print(x.numpy()[:, 1].min())
