import numpy as np
import simkit
import warp as wp
from simkit.shapes import sphere_sdf


@wp.kernel
def inside_count(p: wp.array(dtype=wp.vec3), n: wp.array(dtype=int)):
    i = wp.tid()
    if sphere_sdf(p[i], 1.0) < 0.0:
        wp.atomic_add(n, 0, 1)


pts = wp.array(np.random.default_rng(5).uniform(-1.5, 1.5, (100, 3)).astype(np.float32), dtype=wp.vec3)
d = wp.zeros(100, dtype=float)
wp.launch(simkit.simkit_zero, dim=100, inputs=[d])
wp.launch(simkit.simkit_sdf, dim=100, inputs=[pts, 1.0, d])
n = wp.zeros(1, dtype=int)
wp.launch(inside_count, dim=100, inputs=[pts, n])
print(n.numpy(), (d.numpy() < 0).sum())
