import warp as wp
import numpy as np


@wp.kernel
def win_add(a: wp.array(dtype=float), b: wp.array(dtype=float), c: wp.array(dtype=float)):
    i = wp.tid()
    c[i] = a[i] + b[i]


@wp.kernel
def win_dot(a: wp.array(dtype=wp.vec3), b: wp.array(dtype=wp.vec3), c: wp.array(dtype=float)):
    i = wp.tid()
    c[i] = wp.dot(a[i], b[i])


if __name__ == "__main__":
    a = wp.array(np.ones(4, dtype=np.float32))
    c = wp.zeros(4, dtype=float)
    wp.launch(win_add, dim=4, inputs=[a, a, c])
