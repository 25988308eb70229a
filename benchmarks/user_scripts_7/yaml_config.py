from pathlib import Path

import numpy as np
import warp as wp
import yaml

CFG = yaml.safe_load((Path(__file__).parent / "params.yaml").read_text())
ITER = wp.constant(CFG["solver"]["iterations"])
OMEGA = wp.constant(float(CFG["solver"]["omega"]))

E = CFG["material"]["youngs"]
NU = CFG["material"]["poisson"]
MU = wp.constant(E / (2.0 * (1.0 + NU)))
LAM = wp.constant(E * NU / ((1.0 + NU) * (1.0 - 2.0 * NU)))


@wp.kernel
def sor_sweep(x: wp.array(dtype=float), b: wp.array(dtype=float)):
    i = wp.tid()
    for _ in range(ITER):
        x[i] = (1.0 - OMEGA) * x[i] + OMEGA * 0.5 * b[i]


@wp.kernel
def neo_hookean_energy(F: wp.array(dtype=wp.mat33), psi: wp.array(dtype=float)):
    i = wp.tid()
    f = F[i]
    J = wp.determinant(f)
    Ic = wp.trace(wp.transpose(f) @ f)
    psi[i] = 0.5 * MU * (Ic - 3.0) - MU * wp.log(J) + 0.5 * LAM * wp.log(J) * wp.log(J)


x = wp.zeros(8, dtype=float)
b = wp.ones(8, dtype=float)
wp.launch(sor_sweep, dim=8, inputs=[x, b])
F = wp.array(np.tile(np.eye(3, dtype=np.float32) * 1.1, (4, 1, 1)), dtype=wp.mat33)
psi = wp.zeros(4, dtype=float)
wp.launch(neo_hookean_energy, dim=4, inputs=[F, psi])
print(x.numpy()[0], psi.numpy()[0])
