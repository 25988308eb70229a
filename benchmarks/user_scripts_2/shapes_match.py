import sys

import warp as wp


@wp.kernel
def box_sdf(p: wp.array(dtype=wp.vec3), half: wp.vec3, d: wp.array(dtype=float)):
    i = wp.tid()
    q = wp.vec3(wp.abs(p[i][0]), wp.abs(p[i][1]), wp.abs(p[i][2])) - half
    outside = wp.length(wp.vec3(wp.max(q[0], 0.0), wp.max(q[1], 0.0), wp.max(q[2], 0.0)))
    inside = wp.min(wp.max(q[0], wp.max(q[1], q[2])), 0.0)
    d[i] = outside + inside


@wp.kernel
def capsule_sdf(p: wp.array(dtype=wp.vec3), r: float, h: float, d: wp.array(dtype=float)):
    i = wp.tid()
    q = p[i]
    y = wp.clamp(q[1], -h, h)
    d[i] = wp.length(q - wp.vec3(0.0, y, 0.0)) - r


def pick(shape: str):
    match shape:
        case "box":
            return box_sdf
        case "capsule" | "pill":
            return capsule_sdf
        case _:
            raise ValueError(shape)


type_name = sys.argv[1] if len(sys.argv) > 1 else "box"
kernel = pick(type_name)
