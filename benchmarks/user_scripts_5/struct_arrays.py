import numpy as np
import warp as wp


@wp.struct
class Particle:
    x: wp.vec3
    v: wp.vec3
    mass: float
    alive: wp.int32


@wp.kernel
def update_particles(ps: wp.array(dtype=Particle), dt: float):
    i = wp.tid()
    p = ps[i]
    if p.alive == 0:
        return
    p.v = p.v + wp.vec3(0.0, -9.8, 0.0) * dt
    p.x = p.x + p.v * dt
    if p.x[1] < 0.0:
        p.alive = 0
    ps[i] = p


@wp.kernel
def kinetic_energy(ps: wp.array(dtype=Particle), e: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(e, 0, 0.5 * ps[i].mass * wp.length_sq(ps[i].v))


particles = []
for k in range(16):
    p = Particle()
    p.x = wp.vec3(0.0, 1.0 + 0.1 * k, 0.0)
    p.v = wp.vec3(float(np.cos(k)), 0.0, 0.0)
    p.mass = 1.0
    p.alive = 1
    particles.append(p)

ps = wp.array(particles, dtype=Particle)
for _ in range(20):
    wp.launch(update_particles, dim=len(particles), inputs=[ps, 0.02])
e = wp.zeros(1, dtype=float)
wp.launch(kinetic_energy, dim=len(particles), inputs=[ps, e])
print("KE", e.numpy()[0])
