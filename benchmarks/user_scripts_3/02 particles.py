import numpy as np
import warp as wp


@wp.struct
class Material:
    stiffness: float
    damping: float


@wp.struct
class Particles:
    x: wp.array(dtype=wp.vec3)
    v: wp.array(dtype=wp.vec3)
    mat: Material


@wp.kernel
def integrate_particles(p: Particles, g: wp.vec3, dt: float):
    i = wp.tid()
    v = p.v[i] + g * dt - p.v[i] * p.mat.damping * dt
    p.v[i] = v
    p.x[i] = p.x[i] + v * dt


@wp.kernel
def ground_contact(p: Particles):
    i = wp.tid()
    x = p.x[i]
    if x[1] < 0.0:
        p.x[i] = wp.vec3(x[0], 0.0, x[2])
        p.v[i] = p.v[i] * -p.mat.stiffness


with wp.ScopedDevice("cpu"):
    n = 64
    p = Particles()
    p.x = wp.array(np.random.rand(n, 3).astype(np.float32), dtype=wp.vec3)
    p.v = wp.zeros(n, dtype=wp.vec3)
    p.mat = Material()
    p.mat.stiffness = 0.5
    p.mat.damping = 0.1
    for _ in range(10):
        wp.launch(integrate_particles, dim=n, inputs=[p, wp.vec3(0.0, -9.8, 0.0), 0.01])
        wp.launch(ground_contact, dim=n, inputs=[p])
    print(p.x.numpy()[0])
