from dataclasses import dataclass, field

import warp as wp


@dataclass(frozen=True)
class SolverCfg:
    iters: int = 3
    omega: float = 0.8


@dataclass(frozen=True)
class Cfg:
    solver: SolverCfg = field(default_factory=SolverCfg)
    gravity: tuple = (0.0, -9.8, 0.0)


def make_relax(solver: SolverCfg):
    @wp.kernel
    def relax_cfg(x: wp.array(dtype=float), b: wp.array(dtype=float)):
        i = wp.tid()
        for _ in range(wp.static(solver.iters)):
            x[i] = x[i] + wp.static(solver.omega) * (b[i] - x[i])

    return relax_cfg


def make_gravity(cfg: Cfg):
    g = wp.vec3(*cfg.gravity)

    @wp.kernel
    def apply_gravity_cfg(v: wp.array(dtype=wp.vec3), dt: float):
        i = wp.tid()
        v[i] = v[i] + g * dt

    return apply_gravity_cfg


def main():
    cfg = Cfg(solver=SolverCfg(iters=5))
    x = wp.zeros(4, dtype=float)
    b = wp.ones(4, dtype=float)
    wp.launch(make_relax(cfg.solver), dim=4, inputs=[x, b])
    v = wp.zeros(4, dtype=wp.vec3)
    wp.launch(make_gravity(cfg), dim=4, inputs=[v, 0.1])
    print(x.numpy(), v.numpy()[0])


if __name__ == "__main__":
    main()
