import warp as wp


@wp.kernel
def twist_power(twists: wp.array(dtype=wp.spatial_vector), wrenches: wp.array(dtype=wp.spatial_vector),
                out: wp.array(dtype=float), cross: wp.array(dtype=wp.spatial_vector)):
    i = wp.tid()
    t = twists[i]
    w = wrenches[i]
    out[i] = wp.spatial_dot(t, w) + wp.length(wp.spatial_top(t)) - wp.length(wp.spatial_bottom(w))
    cross[i] = wp.spatial_cross(t, w)


@wp.kernel
def blend_poses(a: wp.array(dtype=wp.transformd), b: wp.array(dtype=wp.transformd), alpha: wp.float64,
                out: wp.array(dtype=wp.transformd), rpy: wp.array(dtype=wp.vec3d)):
    i = wp.tid()
    qa = wp.transform_get_rotation(a[i])
    qb = wp.transform_get_rotation(b[i])
    q = wp.quat_slerp(qa, qb, alpha)
    p = wp.lerp(wp.transform_get_translation(a[i]), wp.transform_get_translation(b[i]), alpha)
    rel = wp.transform_multiply(wp.transform_inverse(a[i]), b[i])
    out[i] = wp.transform_multiply(wp.transformd(p, q), rel)
    rpy[i] = wp.vec3d(wp.float64(2.0) * q[0], q[1], q[2])


n = 3
twists = wp.ones(n, dtype=wp.spatial_vector)
wrenches = wp.ones(n, dtype=wp.spatial_vector)
out = wp.zeros(n, dtype=float)
cross = wp.zeros(n, dtype=wp.spatial_vector)
wp.launch(twist_power, dim=n, inputs=[twists, wrenches, out, cross])
ident = wp.array([wp.transformd(wp.vec3d(0.0, 0.0, 0.0), wp.quatd(0.0, 0.0, 0.0, 1.0))] * n, dtype=wp.transformd)
res = wp.zeros(n, dtype=wp.transformd)
rpy = wp.zeros(n, dtype=wp.vec3d)
wp.launch(blend_poses, dim=n, inputs=[ident, ident, wp.float64(0.5), res, rpy])
print(out.numpy(), res.numpy()[0])
