import math

import numpy as np

import warp as wp

AXIS = wp.normalize(wp.vec3(0.0, 0.0, 1.0))
ROT = wp.quat_from_axis_angle(AXIS, math.pi / 6.0)
POSE = wp.transform(wp.vec3(1.0, 2.0, 3.0), ROT)
PROJ = wp.mat44(*np.diag([1.0, 1.0, 0.5, 1.0]).flatten().tolist())


@wp.kernel
def rotate_global(p: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    p[i] = wp.quat_rotate(ROT, p[i])


@wp.kernel
def pose_and_project(p: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec4)):
    i = wp.tid()
    q = wp.transform_point(POSE, p[i])
    out[i] = PROJ @ wp.vec4(q[0], q[1], q[2], 1.0)


if __name__ == "__main__":
    p = wp.array(np.eye(3, dtype=np.float32), dtype=wp.vec3)
    out = wp.zeros(3, dtype=wp.vec4)
    wp.launch(rotate_global, dim=3, inputs=[p])
    wp.launch(pose_and_project, dim=3, inputs=[p, out])
    print(out.numpy())
