# Example Bouncing Particles
#
# Written after warp/examples/core: an Example class, argparse, ScopedDevice.
import argparse

import numpy as np
import warp as wp


@wp.kernel
def apply_forces_ex(v: wp.array(dtype=wp.vec3), gravity: wp.vec3, dt: float):
    tid = wp.tid()
    v[tid] = v[tid] + gravity * dt


@wp.kernel
def integrate_ex15(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), dt: float):
    tid = wp.tid()
    x[tid] = x[tid] + v[tid] * dt


def make_bounds(box: float, restitution: float):
    @wp.kernel
    def bounce_box(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3)):
        tid = wp.tid()
        p = x[tid]
        if p[1] < 0.0:
            x[tid] = wp.vec3(p[0], 0.0, p[2])
            v[tid] = wp.vec3(v[tid][0], -restitution * v[tid][1], v[tid][2])
        if p[0] > box:
            x[tid] = wp.vec3(box, p[1], p[2])

    return bounce_box


class Example:
    def __init__(self, num_particles=32, box_size=2.0, restitution=0.5):
        self.frame_dt = 1.0 / 60.0
        self.sim_substeps = 4
        self.sim_dt = self.frame_dt / self.sim_substeps
        rng = np.random.default_rng(42)
        self.x = wp.array(rng.random((num_particles, 3)), dtype=wp.vec3)
        self.v = wp.zeros(num_particles, dtype=wp.vec3)
        self.bounds = make_bounds(box_size, restitution)
        self.n = num_particles

    def step(self):
        for _ in range(self.sim_substeps):
            wp.launch(apply_forces_ex, dim=self.n, inputs=[self.v, wp.vec3(0.0, -9.8, 0.0), self.sim_dt])
            wp.launch(integrate_ex15, dim=self.n, inputs=[self.x, self.v, self.sim_dt])
            wp.launch(self.bounds, dim=self.n, inputs=[self.x, self.v])


if __name__ == "__main__":
    parser = argparse.ArgumentParser(formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--device", type=str, default=None, help="Override the default Warp device.")
    parser.add_argument("--num_frames", type=int, default=5, help="Total number of frames.")
    parser.add_argument("--num_particles", type=int, default=32)
    args = parser.parse_known_args()[0]

    with wp.ScopedDevice(args.device):
        example = Example(num_particles=args.num_particles)
        for _ in range(args.num_frames):
            example.step()
        print(example.x.numpy()[0])
