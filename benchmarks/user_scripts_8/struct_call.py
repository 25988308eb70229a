import numpy as np
import warp as wp

mat23 = wp.types.matrix(shape=(2, 3), dtype=float)


class ParticleDef:
    pos: wp.vec3
    vel: wp.vec3
    mass: float
    proj: mat23


# struct made by calling wp.struct rather than decorating
Particle = wp.struct(ParticleDef)


@wp.kernel
def move_particles(ps: wp.array(dtype=Particle), dt: float):
    i = wp.tid()
    p = ps[i]
    p.pos = p.pos + p.vel * dt
    ps[i] = p


@wp.kernel
def particle_energy(ps: wp.array(dtype=Particle), screen: wp.array(dtype=wp.vec2), e: wp.array(dtype=float)):
    i = wp.tid()
    p = ps[i]
    screen[i] = p.proj * p.pos
    wp.atomic_add(e, 0, 0.5 * p.mass * wp.dot(p.vel, p.vel))


items = []
for k in range(4):
    p = Particle()
    p.pos = wp.vec3(float(k), 0.0, 0.0)
    p.vel = wp.vec3(0.0, 1.0, 0.0)
    p.mass = 1.0
    p.proj = mat23(1.0, 0.0, 0.0, 0.0, 1.0, 0.0)
    items.append(p)
ps = wp.array(items, dtype=Particle)
wp.launch(move_particles, dim=4, inputs=[ps, 0.1])
screen = wp.zeros(4, dtype=wp.vec2)
e = wp.zeros(1, dtype=float)
wp.launch(particle_energy, dim=4, inputs=[ps, screen, e])
print(screen.numpy()[1], e.numpy())
