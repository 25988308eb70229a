import enum
from dataclasses import dataclass, field

import warp as wp


class Integrator(enum.Enum):
    EULER = "euler"
    VERLET = "verlet"


@dataclass(frozen=True)
class SimConfig:
    dt: float = 0.01
    gravity: float = -9.81
    integrator: Integrator = Integrator.EULER
    tags: list = field(default_factory=list)


def build_step(cfg: SimConfig):
    DT = wp.constant(cfg.dt)
    G = wp.constant(cfg.gravity)
    if cfg.integrator is Integrator.EULER:

        @wp.kernel
        def euler_step(x: wp.array(dtype=float), v: wp.array(dtype=float)):
            i = wp.tid()
            v[i] = v[i] + G * DT
            x[i] = x[i] + v[i] * DT

        return euler_step

    @wp.kernel
    def verlet_step(x: wp.array(dtype=float), x_prev: wp.array(dtype=float)):
        i = wp.tid()
        cur = x[i]
        x[i] = 2.0 * cur - x_prev[i] + G * DT * DT
        x_prev[i] = cur

    return verlet_step


for integ in Integrator:
    cfg = SimConfig(integrator=integ)
    k = build_step(cfg)
    a = wp.zeros(4, dtype=float, device="cpu")
    b = wp.zeros(4, dtype=float, device="cpu")
    wp.launch(k, dim=4, inputs=[a, b], device="cpu")
    print(integ.name, a.numpy()[0])
