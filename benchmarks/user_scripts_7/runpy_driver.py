# runs a sibling script and reuses what it left behind
import runpy
from pathlib import Path

import numpy as np
import warp as wp

ns = runpy.run_path(str(Path(__file__).with_name("sub_sim.py")), run_name="sub_sim")


@wp.kernel
def relative_error(c: wp.array(dtype=float), expected: float, err: wp.array(dtype=float)):
    i = wp.tid()
    err[i] = wp.abs(c[i] - expected) / expected


expected = float(np.exp(-ns["RATE"] * 0.3))
err = wp.zeros(32, dtype=float)
wp.launch(relative_error, dim=32, inputs=[ns["c"], expected, err])
# and launch the sibling's own kernel again
wp.launch(ns["decay"], dim=32, inputs=[ns["c"], 0.1])
print(ns["result"], err.numpy().max())
