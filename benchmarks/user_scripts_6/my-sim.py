# odd layouts: a one-line kernel, a decorator over several lines, a signature with comments, a backslash
import warp as wp

wp.init()


@wp.kernel
def zero_fill(a: wp.array(dtype=float)): a[wp.tid()] = 0.0  # noqa: E704


@wp.kernel(
    # keep it small: no adjoint needed here
    enable_backward=False,
)
def integrate_verlet(
    x: wp.array(dtype=wp.vec3),  # positions
    x_prev: wp.array(dtype=wp.vec3),  # previous positions
    # forces are per unit mass
    f: wp.array(dtype=wp.vec3),
    dt: float,
):
    i = wp.tid()
    xi = x[i]
    x[i] = 2.0 * xi - x_prev[i] + f[i] * dt * dt
    x_prev[i] = xi


@wp.kernel
def damp_all(v: wp.array(dtype=wp.vec3), \
             k: float):
    i = wp.tid()
    v[i] = v[i] * \
        (1.0 - k)


a = wp.ones(8, dtype=float)
wp.launch(zero_fill, dim=8, inputs=[a])
x = wp.zeros(8, dtype=wp.vec3)
xp = wp.zeros(8, dtype=wp.vec3)
f = wp.full(8, wp.vec3(0.0, -9.8, 0.0), dtype=wp.vec3)
wp.launch(integrate_verlet, dim=8, inputs=[x, xp, f, 0.01])
wp.launch(damp_all, dim=8, inputs=[x, 0.1])
print(a.numpy().sum(), x.numpy()[0])
