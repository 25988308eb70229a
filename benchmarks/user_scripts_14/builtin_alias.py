from math import e as E
from math import pi as PI

import warp as wp

act = wp.tanh
vnorm = wp.length


@wp.kernel
def tanh_alias(x: wp.array(dtype=float), v: wp.array(dtype=wp.vec3), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = act(x[i]) * vnorm(v[i])


@wp.kernel
def wave_pi(t: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = wp.sin(2.0 * PI * t[i]) * wp.pow(E, -t[i])


if __name__ == "__main__":
    x = wp.array([0.0, 0.5, 1.0], dtype=float)
    v = wp.full(3, wp.vec3(1.0, 2.0, 2.0), dtype=wp.vec3)
    y = wp.zeros(3, dtype=float)
    wp.launch(tanh_alias, dim=3, inputs=[x, v, y])
    wp.launch(wave_pi, dim=3, inputs=[x, y])
    print(y.numpy())
