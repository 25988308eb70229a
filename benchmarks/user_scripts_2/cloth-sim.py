# simple mass spring cloth, my first "real" warp program
import argparse

import numpy as np
import warp as wp

import utils as u

parser = argparse.ArgumentParser()
parser.add_argument("--res", type=int, default=32)
parser.add_argument("--steps", type=int, default=100)
parser.add_argument("--device", default=None)
args = parser.parse_args()

wp.init()
wp.config.verify_fp = False


@wp.kernel
def apply_gravity(particles: wp.array(dtype=u.Particle), params: u.SimParams):
    tid = wp.tid()
    p = particles[tid]
    if p.mass > 0.0:
        p.vel = p.vel + params.gravity * params.dt
    particles[tid] = p


@wp.kernel
def eval_springs(
    x: wp.array(dtype=wp.vec3),
    v: wp.array(dtype=wp.vec3),
    springs: wp.array(dtype=int),
    rest: wp.array(dtype=float),
    ke: float,
    kd: float,
    f: wp.array(dtype=wp.vec3),
):
    tid = wp.tid()
    i = springs[tid * 2 + 0]
    j = springs[tid * 2 + 1]
    xij = x[i] - x[j]
    vij = v[i] - v[j]
    l = wp.length(xij)
    dir = u.direction(x[j], x[i])
    c = l - rest[tid]
    dcdt = wp.dot(dir, vij)
    fs = dir * (ke * c + kd * dcdt)
    wp.atomic_sub(f, i, fs)
    wp.atomic_add(f, j, fs)


@wp.kernel
def integrate(
    x: wp.array(dtype=wp.vec3),
    v: wp.array(dtype=wp.vec3),
    f: wp.array(dtype=wp.vec3),
    inv_mass: wp.array(dtype=float),
    params: u.SimParams,
):
    tid = wp.tid()
    v1 = v[tid] * params.damping + (f[tid] * inv_mass[tid] + params.gravity) * params.dt
    if inv_mass[tid] == 0.0:
        v1 = wp.vec3()
    x[tid] = x[tid] + v1 * params.dt
    v[tid] = v1
    f[tid] = wp.vec3()


def build(res):
    pts = []
    for j in range(res):
        for i in range(res):
            pts.append((i / res, 1.0, j / res))
    springs = []
    for j in range(res):
        for i in range(res - 1):
            springs += [j * res + i, j * res + i + 1]
    for j in range(res - 1):
        for i in range(res):
            springs += [j * res + i, (j + 1) * res + i]
    return np.array(pts, dtype=np.float32), np.array(springs, dtype=np.int32)


if __name__ == "__main__":
    pts, springs = build(args.res)
    x = wp.array(pts, dtype=wp.vec3, device=args.device)
    v = wp.zeros_like(x)
    f = wp.zeros_like(x)
    im = np.ones(len(pts), dtype=np.float32)
    im[: args.res] = 0.0
    inv_mass = wp.array(im, dtype=float, device=args.device)
    sp = wp.array(springs, dtype=int, device=args.device)
    rest = wp.full(len(springs) // 2, 1.0 / args.res, dtype=float, device=args.device)
    params = u.SimParams()
    params.gravity = wp.vec3(0.0, -9.8, 0.0)
    params.dt = 1.0 / 600.0
    params.damping = 0.999
    for step in range(args.steps):
        wp.launch(eval_springs, dim=len(springs) // 2, inputs=[x, v, sp, rest, 1.0e3, 1.0, f], device=args.device)
        wp.launch(integrate, dim=len(pts), inputs=[x, v, f, inv_mass, params], device=args.device)
    print(x.numpy().mean(axis=0))
