from dataclasses import dataclass

import warp as wp


@dataclass
class SimConfig:
    num_particles: int = 1024
    dt: float = 1.0 / 60.0
    gravity: float = -9.81
    substeps: int = 4


def make_step_kernel(cfg: SimConfig):
    dt = cfg.dt / cfg.substeps
    g = cfg.gravity

    @wp.kernel
    def step(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3)):
        tid = wp.tid()
        v[tid] = v[tid] + wp.vec3(0.0, g, 0.0) * dt
        x[tid] = x[tid] + v[tid] * dt

    return step


def make_bounds_kernel(lo: float, hi: float):
    @wp.kernel
    def clamp_to_box(x: wp.array(dtype=wp.vec3)):
        tid = wp.tid()
        p = x[tid]
        x[tid] = wp.vec3(wp.clamp(p[0], lo, hi), wp.clamp(p[1], lo, hi), wp.clamp(p[2], lo, hi))

    return clamp_to_box


def run(cfg):
    step = make_step_kernel(cfg)
    bounds = make_bounds_kernel(-1.0, 1.0)
    x = wp.zeros(cfg.num_particles, dtype=wp.vec3)
    v = wp.zeros_like(x)
    for _ in range(cfg.substeps):
        wp.launch(step, dim=cfg.num_particles, inputs=[x, v])
        wp.launch(bounds, dim=cfg.num_particles, inputs=[x])


if __name__ == "__main__":
    run(SimConfig())
