"""Dataclass settings inheriting fields and ClassVar constants, read with wp.static."""

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import warp as wp


@dataclass
class BaseCfg:
    dt: float = 0.01
    EPS: ClassVar[float] = 1.0e-6


@dataclass
class FluidCfg(BaseCfg):
    viscosity: float = 0.05
    iters: int = 2


FLUID = FluidCfg(dt=0.02)


@wp.kernel
def diffuse(u: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    n = u.shape[0]
    a = wp.static(FLUID.viscosity * FLUID.dt)
    v = u[i]
    for _ in range(wp.static(FLUID.iters)):
        v = (u[i] + a * (u[wp.max(i - 1, 0)] + u[wp.min(i + 1, n - 1)])) / (1.0 + 2.0 * a)
    out[i] = v


@wp.kernel
def safe_normalize(u: wp.array(dtype=float), total: float):
    i = wp.tid()
    u[i] = u[i] / (total + wp.static(FluidCfg.EPS))


u = wp.array(np.arange(5, dtype=np.float32))
out = wp.zeros(5, dtype=float)
wp.launch(diffuse, dim=5, inputs=[u, out])
wp.launch(safe_normalize, dim=5, inputs=[out, float(out.numpy().sum())])
print(out.numpy())
