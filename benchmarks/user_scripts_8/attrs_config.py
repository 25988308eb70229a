import attrs
import numpy as np
import warp as wp


@attrs.frozen
class Material:
    youngs: float = 1.0e4
    poisson: float = 0.3


@attrs.define
class Grid:
    nx: int = 8
    spacing: float = 0.1


MAT = Material(poisson=0.25)
GRID = Grid()


@wp.kernel
def lame_mu(strain: wp.array(dtype=float), stress: wp.array(dtype=float)):
    i = wp.tid()
    mu = wp.static(MAT.youngs / (2.0 * (1.0 + MAT.poisson)))
    stress[i] = 2.0 * mu * strain[i]


@wp.kernel
def cell_x(out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = float(i % wp.static(GRID.nx)) * wp.static(GRID.spacing)


s = wp.array(np.full(4, 0.01, dtype=np.float32))
st = wp.zeros(4, dtype=float)
wp.launch(lame_mu, dim=4, inputs=[s, st])
xs = wp.zeros(16, dtype=float)
wp.launch(cell_x, dim=16, inputs=[xs])
print(st.numpy(), xs.numpy()[:10])
