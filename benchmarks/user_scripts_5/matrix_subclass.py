import numpy as np
import warp as wp


class Mat43(wp.types.matrix(shape=(4, 3), dtype=wp.float32)):
    pass


class Vec4d(wp.types.vector(length=4, dtype=wp.float64)):
    pass


class Jacobian(wp.types.matrix(shape=(2, 6), dtype=float)):
    """Contact Jacobian of one body pair."""


@wp.kernel
def apply_mat43(m: wp.array(dtype=Mat43), v: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec4)):
    i = wp.tid()
    out[i] = m[i] * v[i]


@wp.kernel
def jac_times_vel(J: wp.array(dtype=Jacobian), qd: wp.array(dtype=wp.types.vector(6, float)), out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    out[i] = J[i] * qd[i]


@wp.kernel
def norm4d(v: wp.array(dtype=Vec4d), out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    out[i] = wp.length(v[i])


n = 5
m = wp.array(np.ones((n, 4, 3), dtype=np.float32), dtype=Mat43)
v = wp.array(np.ones((n, 3), dtype=np.float32), dtype=wp.vec3)
out = wp.zeros(n, dtype=wp.vec4)
wp.launch(apply_mat43, dim=n, inputs=[m, v, out])
J = wp.array(np.ones((n, 2, 6), dtype=np.float32), dtype=Jacobian)
qd = wp.array(np.ones((n, 6), dtype=np.float32), dtype=wp.types.vector(6, float))
o2 = wp.zeros(n, dtype=wp.vec2)
wp.launch(jac_times_vel, dim=n, inputs=[J, qd, o2])
v4 = wp.array(np.ones((n, 4)), dtype=Vec4d)
o3 = wp.zeros(n, dtype=wp.float64)
wp.launch(norm4d, dim=n, inputs=[v4, o3])
print(out.numpy()[0], o2.numpy()[0], o3.numpy()[0])
