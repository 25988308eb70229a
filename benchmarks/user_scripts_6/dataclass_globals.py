# a frozen dataclass instance at module level read inside kernels through wp.static
from dataclasses import dataclass

import warp as wp


@dataclass(frozen=True)
class SimConfig:
    dt: float = 1.0 / 60.0
    gravity: float = -9.81
    substeps: int = 4
    floor: float = 0.0


CFG = SimConfig(substeps=3)


@wp.kernel
def fall(y: wp.array(dtype=float), v: wp.array(dtype=float)):
    i = wp.tid()
    v[i] = v[i] + wp.static(CFG.gravity * CFG.dt)
    y[i] = wp.max(y[i] + v[i] * wp.static(CFG.dt), wp.static(CFG.floor))


@wp.kernel
def substep_loop(y: wp.array(dtype=float), v: wp.array(dtype=float)):
    i = wp.tid()
    h = wp.static(CFG.dt / float(CFG.substeps))
    for _s in range(wp.static(CFG.substeps)):
        v[i] = v[i] + wp.static(CFG.gravity) * h
        y[i] = y[i] + v[i] * h


y = wp.full(4, 1.0, dtype=float)
v = wp.zeros(4, dtype=float)
wp.launch(fall, dim=4, inputs=[y, v])
wp.launch(substep_loop, dim=4, inputs=[y, v])
print(y.numpy())
