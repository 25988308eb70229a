"""Intro to Warp: launch arguments gathered in a dict first."""

import numpy as np
import warp as wp

wp.init()


@wp.kernel
def add_vectors(a: wp.array(dtype=wp.vec3), b: wp.array(dtype=wp.vec3), c: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    c[tid] = a[tid] + b[tid]


@wp.kernel
def dot_partials(a: wp.array(dtype=wp.vec3), b: wp.array(dtype=wp.vec3), total: wp.array(dtype=float)):
    tid = wp.tid()
    wp.atomic_add(total, 0, wp.dot(a[tid], b[tid]))


n = 64
args = {
    "a": wp.array(np.ones((n, 3)), dtype=wp.vec3),
    "b": wp.array(np.full((n, 3), 2.0), dtype=wp.vec3),
}
c = wp.empty(n, dtype=wp.vec3)
wp.launch(add_vectors, dim=n, inputs=list(args.values()), outputs=[c])

total = wp.zeros(1, dtype=float)
wp.launch(kernel=dot_partials, dim=[n], inputs=[*args.values()], outputs=[total], device="cpu")
print(c.numpy()[0], total.numpy()[0])
