"""A plain settings object edited attribute by attribute in main() before it is used."""

import warp as wp


class SolverCfg:
    def __init__(self):
        self.dt = 0.01
        self.damping = 0.0


class Sim:
    def __init__(self):
        self.cfg = SolverCfg()
        self.n = 4


def make_step(dt):
    @wp.kernel
    def step_attr(x: wp.array(dtype=float), v: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = x[i] + dt * v[i]

    return step_attr


def make_damp(c):
    @wp.kernel
    def damp_attr(v: wp.array(dtype=float)):
        i = wp.tid()
        v[i] = v[i] * (1.0 - c)

    return damp_attr


def main():
    sim = Sim()
    sim.cfg.dt = 0.02
    cfg = SolverCfg()
    cfg.damping = 0.1
    x = wp.zeros(sim.n, dtype=float)
    v = wp.full(sim.n, 1.0, dtype=float)
    wp.launch(make_step(sim.cfg.dt), dim=sim.n, inputs=[x, v])
    wp.launch(make_damp(cfg.damping), dim=sim.n, inputs=[v])
    print(x.numpy(), v.numpy())


if __name__ == "__main__":
    main()
