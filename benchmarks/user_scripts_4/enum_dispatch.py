import enum
from dataclasses import dataclass, field

import numpy as np
import warp as wp


class Integrator(enum.IntEnum):
    EULER = 0
    MIDPOINT = 1
    RK4 = 2


class Boundary(enum.Enum):
    WRAP = "wrap"
    CLAMP = "clamp"


@dataclass
class Settings:
    integrator: Integrator = Integrator.MIDPOINT
    boundary: Boundary = Boundary.WRAP
    dt: float = 0.05
    sizes: list = field(default_factory=lambda: [8, 16])


SETTINGS = Settings()
INTEGRATOR = wp.constant(int(SETTINGS.integrator))


@wp.func
def accel(x: float):
    return -x


@wp.kernel
def integrate(x: wp.array(dtype=float), v: wp.array(dtype=float), dt: float):
    i = wp.tid()
    if wp.static(SETTINGS.integrator == Integrator.EULER):
        a = accel(x[i])
        x[i] = x[i] + v[i] * dt
        v[i] = v[i] + a * dt
    elif INTEGRATOR == 1:
        xm = x[i] + 0.5 * dt * v[i]
        vm = v[i] + 0.5 * dt * accel(x[i])
        x[i] = x[i] + dt * vm
        v[i] = v[i] + dt * accel(xm)
    else:
        x[i] = x[i]


@wp.kernel
def apply_boundary(idx: wp.array(dtype=int), n: int):
    i = wp.tid()
    if wp.static(SETTINGS.boundary is Boundary.WRAP):
        idx[i] = ((idx[i] % n) + n) % n
    else:
        idx[i] = wp.clamp(idx[i], 0, n - 1)


for n in SETTINGS.sizes:
    x = wp.array(np.ones(n, dtype=np.float32), device="cpu")
    v = wp.zeros(n, dtype=float, device="cpu")
    wp.launch(integrate, dim=n, inputs=[x, v, SETTINGS.dt], device="cpu")
    idx = wp.array(np.arange(-n, n, 2, dtype=np.int32), device="cpu")
    wp.launch(apply_boundary, dim=n, inputs=[idx, n], device="cpu")
    print(n, x.numpy()[0], idx.numpy()[:3])
