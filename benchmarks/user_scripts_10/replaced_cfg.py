import copy
import dataclasses
from typing import NamedTuple

import warp as wp


@dataclasses.dataclass(frozen=True)
class SimCfg:
    dt: float = 0.01
    gravity: float = -9.8
    iters: int = 2


class Limits(NamedTuple):
    lo: float
    hi: float


BASE = SimCfg()
FINE = dataclasses.replace(BASE, dt=0.001, iters=6)
LIM = Limits(-1.0, 1.0)._replace(hi=2.0)
LIM2 = copy.deepcopy(LIM)


@wp.kernel
def fall_fine(v: wp.array(dtype=float)):
    i = wp.tid()
    for _ in range(wp.static(FINE.iters)):
        v[i] = v[i] + wp.static(FINE.dt * FINE.gravity)


@wp.kernel
def clamp_lim(v: wp.array(dtype=float)):
    i = wp.tid()
    v[i] = wp.clamp(v[i], wp.static(LIM2.lo), wp.static(LIM2.hi))


v = wp.zeros(3, dtype=float)
wp.launch(fall_fine, dim=3, inputs=[v])
wp.launch(clamp_lim, dim=3, inputs=[v])
print(v.numpy())
