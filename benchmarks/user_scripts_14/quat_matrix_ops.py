import numpy as np
import warp as wp


@wp.kernel
def rpy_frames(q: wp.array(dtype=wp.quat), rpy: wp.array(dtype=wp.vec3), mats: wp.array(dtype=wp.mat33), angle: wp.array(dtype=float)):
    i = wp.tid()
    r = wp.normalize(q[i])
    m = wp.quat_to_matrix(r)
    mats[i] = m
    back = wp.quat_from_matrix(m)
    axis = wp.vec3()
    a = float(0.0)
    wp.quat_to_axis_angle(back, axis, a)
    angle[i] = a
    rpy[i] = wp.vec3(wp.atan2(m[2, 1], m[2, 2]), wp.asin(-m[2, 0]), wp.atan2(m[1, 0], m[0, 0]))


@wp.kernel
def skew_ops(w: wp.array(dtype=wp.vec3), m: wp.array(dtype=wp.mat33), out: wp.array(dtype=float), cw: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    s = wp.skew(w[i])
    out[i] = wp.ddot(s, m[i]) + wp.trace(m[i] @ wp.transpose(s))
    cw[i] = wp.cw_mul(w[i], wp.vec3(1.0, 2.0, 3.0)) + wp.cw_div(w[i], wp.vec3(2.0, 2.0, 2.0))


if __name__ == "__main__":
    q = wp.array(np.tile([0.0, 0.0, 0.38268343, 0.92387953], (3, 1)), dtype=wp.quat)
    rpy = wp.zeros(3, dtype=wp.vec3)
    mats = wp.zeros(3, dtype=wp.mat33)
    angle = wp.zeros(3, dtype=float)
    wp.launch(rpy_frames, dim=3, inputs=[q, rpy, mats, angle])
    w = wp.full(3, wp.vec3(1.0, 0.0, 0.5), dtype=wp.vec3)
    out = wp.zeros(3, dtype=float)
    cw = wp.zeros(3, dtype=wp.vec3)
    wp.launch(skew_ops, dim=3, inputs=[w, mats, out, cw])
    print(rpy.numpy()[0], angle.numpy()[0], out.numpy()[0], cw.numpy()[0])
