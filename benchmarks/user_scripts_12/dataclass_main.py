from dataclasses import asdict, dataclass, field

import warp as wp


@dataclass
class SimConfig:
    dt: float = 0.01
    substeps: int = 4
    dt_sub: float = field(init=False)

    def __post_init__(self):
        self.dt_sub = self.dt / self.substeps


def make_substep(dt_sub: float):
    @wp.kernel
    def substep(x: wp.array(dtype=float), v: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = x[i] + dt_sub * v[i]

    return substep


def make_loop(dt: float, substeps: int, dt_sub: float):
    @wp.kernel
    def looped(x: wp.array(dtype=float), v: wp.array(dtype=float)):
        i = wp.tid()
        for _ in range(substeps):
            x[i] = x[i] + dt_sub * v[i]
        x[i] = x[i] - dt * 0.0

    return looped


def main():
    cfg = SimConfig(dt=0.02)
    x = wp.zeros(4, dtype=float)
    v = wp.ones(4, dtype=float)
    wp.launch(make_substep(cfg.dt_sub), dim=4, inputs=[x, v])
    wp.launch(make_loop(**asdict(cfg)), dim=4, inputs=[x, v])
    print(x.numpy())


if __name__ == "__main__":
    main()
