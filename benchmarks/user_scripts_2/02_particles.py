###########################################################################
# Particles in a box, following the warp examples structure
###########################################################################

import numpy as np
import warp as wp

from utils import Particle, falloff

NUM_NEIGHBORS = 8


class Example:
    @wp.kernel
    def init_particles(particles: wp.array(dtype=Particle), seed: int):
        tid = wp.tid()
        state = wp.rand_init(seed, tid)
        p = Particle()
        p.pos = wp.vec3(wp.randf(state), wp.randf(state), wp.randf(state))
        p.vel = wp.vec3(0.0)
        p.mass = 1.0
        particles[tid] = p

    def __init__(self, n=4096, radius=0.02):
        self.n = n
        self.radius = radius
        self.sim_dt = 1.0 / 60.0
        self.particles = wp.zeros(n, dtype=Particle)
        self.grid = wp.HashGrid(64, 64, 64)

        max_neighbors = self.n // 512
        h = self.radius * 2.0

        @wp.kernel
        def density(
            grid: wp.uint64,
            particles: wp.array(dtype=Particle),
            rho: wp.array(dtype=float),
        ):
            tid = wp.tid()
            i = wp.hash_grid_point_id(grid, tid)
            x = particles[i].pos
            s = float(0.0)
            count = int(0)
            neighbors = wp.hash_grid_query(grid, x, h)
            for j in neighbors:
                if count < max_neighbors:
                    d = wp.length(x - particles[j].pos)
                    s += falloff(d, h)
                    count += 1
            rho[i] = s

        self.density_kernel = density
        self.rho = wp.zeros(n, dtype=float)
        wp.launch(Example.init_particles, dim=n, inputs=[self.particles, 42])

    def step(self):
        with wp.ScopedTimer("step", active=False):
            pos = wp.array([p for p in self.particles.numpy()["pos"]], dtype=wp.vec3)
            self.grid.build(pos, self.radius * 2.0)
            wp.launch(self.density_kernel, dim=self.n, inputs=[self.grid.id, self.particles, self.rho])
            wp.launch(advect, dim=self.n, inputs=[self.particles, self.sim_dt])


@wp.kernel
def advect(particles: wp.array(dtype=Particle), dt: float):
    tid = wp.tid()
    p = particles[tid]
    p.vel = p.vel + wp.vec3(0.0, -9.81, 0.0) * dt
    p.pos = p.pos + p.vel * dt
    if p.pos[1] < 0.0:
        p.pos = wp.vec3(p.pos[0], 0.0, p.pos[2])
        p.vel = wp.vec3(p.vel[0], -0.5 * p.vel[1], p.vel[2])
    particles[tid] = p


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--num-frames", type=int, default=60)
    parser.add_argument("--n", type=int, default=4096)
    args = parser.parse_known_args()[0]

    with wp.ScopedDevice(None):
        example = Example(n=args.n)
        for _ in range(args.num_frames):
            example.step()
        print(np.mean(example.rho.numpy()))
