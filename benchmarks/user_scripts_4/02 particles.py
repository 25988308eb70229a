# particle sim using my utils package
import numpy as np
import warp as wp

from utils import Particle, SimParams, clear_forces, drag_force, GRAVITY, spring_force

wp.init()


@wp.kernel
def accumulate_springs(
    particles: wp.array(dtype=Particle),
    springs: wp.array(dtype=wp.vec2i),
    rest: float,
    ks: float,
    forces: wp.array(dtype=wp.vec3),
):
    s = wp.tid()
    a = springs[s][0]
    b = springs[s][1]
    f = spring_force(particles[a].x, particles[b].x, rest, ks)
    wp.atomic_add(forces, a, f)
    wp.atomic_sub(forces, b, f)


@wp.kernel
def step(particles: wp.array(dtype=Particle), forces: wp.array(dtype=wp.vec3), params: SimParams):
    i = wp.tid()
    p = particles[i]
    if p.inv_mass == 0.0:
        return
    f = forces[i] + drag_force(p.v, params.damping)
    v = p.v + (f * p.inv_mass + GRAVITY) * params.dt
    x = p.x + v * params.dt
    if x[1] < params.ground:
        x = wp.vec3(x[0], params.ground, x[2])
        v = wp.vec3(v[0], 0.0, v[2])
    p.x = x
    p.v = v
    particles[i] = p


n = 16
host = []
for i in range(n):
    p = Particle()
    p.x = wp.vec3(float(i) * 0.1, 1.0, 0.0)
    p.v = wp.vec3(0.0)
    p.inv_mass = 0.0 if i == 0 else 1.0
    host.append(p)
particles = wp.array(host, dtype=Particle, device="cpu")
springs = wp.array(np.stack([np.arange(n - 1), np.arange(1, n)], axis=1).astype(np.int32), dtype=wp.vec2i, device="cpu")
forces = wp.zeros(n, dtype=wp.vec3, device="cpu")

params = SimParams()
params.dt = 1.0 / 60.0
params.damping = 0.1
params.ground = 0.0

for frame in range(10):
    wp.launch(clear_forces, dim=n, inputs=[forces], device="cpu")
    wp.launch(accumulate_springs, dim=n - 1, inputs=[particles, springs, 0.1, 50.0, forces], device="cpu")
    wp.launch(step, dim=n, inputs=[particles, forces, params], device="cpu")

print("last particle y:", particles.numpy()[-1][0][1])
