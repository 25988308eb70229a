import csv
from pathlib import Path

import numpy as np
import warp as wp

with open(Path(__file__).with_name("coeffs.csv"), newline="") as f:
    ROWS = {r["name"]: float(r["value"]) for r in csv.DictReader(f)}

COEFFS = [ROWS[f"c{k}"] for k in range(3)]
DAMPING = wp.constant(ROWS["damping"])


@wp.kernel
def poly_csv(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    acc = float(0.0)
    p = float(1.0)
    for k in range(wp.static(len(COEFFS))):
        acc += wp.static(COEFFS[k]) * p
        p *= x[i]
    y[i] = acc


@wp.kernel
def damp_csv(v: wp.array(dtype=float)):
    v[wp.tid()] *= DAMPING


x = wp.array(np.linspace(0, 1, 5, dtype=np.float32))
y = wp.zeros(5, dtype=float)
wp.launch(poly_csv, dim=5, inputs=[x, y])
wp.launch(damp_csv, dim=5, inputs=[y])
print(y.numpy())
