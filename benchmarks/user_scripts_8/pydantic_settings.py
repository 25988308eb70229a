import numpy as np
import warp as wp
from pydantic import BaseModel, Field


class SolverSettings(BaseModel):
    omega: float = 1.5
    iterations: int = Field(default=4, ge=1)
    lo: float = -1.0
    hi: float = 1.0


SETTINGS = SolverSettings(omega=1.2)


@wp.kernel
def relax_pyd(x: wp.array(dtype=float), b: wp.array(dtype=float)):
    i = wp.tid()
    for _ in range(wp.static(SETTINGS.iterations)):
        x[i] = (1.0 - wp.static(SETTINGS.omega)) * x[i] + wp.static(SETTINGS.omega) * b[i]


@wp.kernel
def clamp_pyd(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = wp.clamp(x[i], wp.static(SETTINGS.lo), wp.static(SETTINGS.hi))


x = wp.zeros(5, dtype=float)
b = wp.array(np.linspace(-2, 2, 5, dtype=np.float32))
wp.launch(relax_pyd, dim=5, inputs=[x, b])
wp.launch(clamp_pyd, dim=5, inputs=[x])
print(x.numpy())
