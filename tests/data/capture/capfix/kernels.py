"""Kernels of the capture fixture; see tests/test_capture.py for what each one exercises."""

from typing import Any

import warp as wp


@wp.struct
class Params:
    gravity: wp.vec3
    damping: float
    mass: wp.array(dtype=float)


@wp.kernel
def scale(a: wp.array(dtype=float), s: float, out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = a[i] * s


@wp.kernel
def integrate(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), q: wp.quat, dt: float):
    i = wp.tid()
    v[i] = v[i] * 0.5 + wp.quat_rotate(q, wp.vec3(0.0, 0.0, 1.0)) * dt
    x[i] = x[i] + v[i] * dt


@wp.kernel
def apply_params(p: Params, v: wp.array(dtype=wp.vec3), m: wp.mat22):
    i = wp.tid()
    v[i] = (v[i] + p.gravity * (p.mass[i] * m[0, 1])) * p.damping


@wp.kernel
def add_generic(a: wp.array(dtype=Any), b: wp.array(dtype=Any)):
    i = wp.tid()
    b[i] = b[i] + a[i]


@wp.kernel
def count(flags: wp.array(dtype=wp.int32), total: wp.array(dtype=wp.int32)):
    i = wp.tid()
    if flags[i] > 0:
        wp.atomic_add(total, 0, 1)


@wp.kernel
def gather(a: wp.indexedarray(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = a[i]


@wp.func
def distance_to(mesh: wp.uint64, p: wp.vec3) -> float:
    q = wp.mesh_query_point_no_sign(mesh, p, 1.0e6)
    return wp.length(wp.mesh_eval_position(mesh, q.face, q.u, q.v) - p)


@wp.kernel
def by_id(mesh: wp.uint64, x: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = distance_to(mesh, x[i])  # the id is used in a function: found in the row's helpers


@wp.kernel
def hash_keys(keys: wp.array(dtype=wp.uint64), seed: wp.uint64, out: wp.array(dtype=wp.uint64)):
    i = wp.tid()
    h = (keys[i] ^ seed) * wp.uint64(1099511628211)
    out[i] = h ^ (h >> wp.uint64(29))


@wp.kernel
def shift(src: wp.array(dtype=float), dst: wp.array(dtype=float)):
    i = wp.tid()
    dst[i] = src[i] + 1.0


@wp.kernel
def row_sums(a: wp.array2d(dtype=float), out: wp.array(dtype=float)):
    # launched with `wp.launch_tiled`: on the CPU Warp appends a block of one thread to the grid
    i, lane = wp.tid()
    s = wp.tile_sum(wp.tile_load(a[i], shape=8))
    if lane == 0:
        out[i] = s[0]


wp.overload(add_generic, [wp.array(dtype=float), wp.array(dtype=float)])
wp.overload(add_generic, [wp.array(dtype=wp.vec3), wp.array(dtype=wp.vec3)])
