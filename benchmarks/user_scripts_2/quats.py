import math

import warp as wp

wp.config.mode = "release"


@wp.kernel
def rotate_points(q: wp.quat, pts: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    out[i] = wp.quat_rotate(q, pts[i])


@wp.kernel
def transform_points(xf: wp.array(dtype=wp.transform), pts: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    out[i] = wp.transform_point(xf[i], pts[i])


@wp.kernel
def integrate_bodies(
    body_q: wp.array(dtype=wp.transformf),
    body_qd: wp.array(dtype=wp.spatial_vector),
    dt: float,
):
    tid = wp.tid()
    q = body_q[tid]
    qd = body_qd[tid]
    p = wp.transform_get_translation(q)
    r = wp.transform_get_rotation(q)
    w = wp.spatial_top(qd)
    v = wp.spatial_bottom(qd)
    p = p + v * dt
    r = wp.normalize(r + wp.quat(w, 0.0) * r * 0.5 * dt)
    body_q[tid] = wp.transform(p, r)


@wp.kernel
def inertia_world(
    body_q: wp.array(dtype=wp.transform), inertia: wp.array(dtype=wp.mat33), out: wp.array(dtype=wp.mat33)
):
    tid = wp.tid()
    R = wp.quat_to_matrix(wp.transform_get_rotation(body_q[tid]))
    out[tid] = R * inertia[tid] * wp.transpose(R)


@wp.kernel
def double_precision_rot(q: wp.array(dtype=wp.quatd), v: wp.array(dtype=wp.vec3d), out: wp.array(dtype=wp.vec3d)):
    i = wp.tid()
    out[i] = wp.quat_rotate_inv(q[i], v[i])


if __name__ == "__main__":
    q = wp.quat_from_axis_angle(wp.vec3(0.0, 1.0, 0.0), math.pi / 4.0)
    pts = wp.array([[1.0, 0.0, 0.0]] * 4, dtype=wp.vec3)
    out = wp.zeros_like(pts)
    wp.launch(rotate_points, dim=4, inputs=[q, pts, out])
    print(out)
