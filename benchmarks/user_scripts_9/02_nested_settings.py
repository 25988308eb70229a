"""Settings nested in settings: cfg.solver.iters read with wp.static."""

from dataclasses import dataclass, field

import numpy as np
import warp as wp


@dataclass(frozen=True)
class SolverCfg:
    iters: int = 3
    omega: float = 0.8


@dataclass(frozen=True)
class MaterialCfg:
    stiffness: float = 120.0
    rest: float = 0.25


@dataclass(frozen=True)
class Config:
    solver: SolverCfg = field(default_factory=SolverCfg)
    material: MaterialCfg = field(default_factory=MaterialCfg)
    name: str = "default"


CFG = Config(solver=SolverCfg(iters=5))


@wp.kernel
def relax_nested(x: wp.array(dtype=float), b: wp.array(dtype=float)):
    i = wp.tid()
    for _ in range(wp.static(CFG.solver.iters)):
        x[i] = x[i] + wp.static(CFG.solver.omega) * (b[i] - x[i])


@wp.kernel
def stiff_force(d: wp.array(dtype=float), f: wp.array(dtype=float)):
    i = wp.tid()
    f[i] = -wp.static(CFG.material.stiffness) * (d[i] - wp.static(CFG.material.rest))


n = 32
x = wp.zeros(n, dtype=float)
b = wp.array(np.ones(n, dtype=np.float32))
wp.launch(relax_nested, dim=n, inputs=[x, b])
f = wp.zeros(n, dtype=float)
wp.launch(stiff_force, dim=n, inputs=[x, f])
print(x.numpy()[0], f.numpy()[0])
