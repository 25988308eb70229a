"""Experiment 12: a larger gain than the default in tunables.py."""

import numpy as np
import tunables
import warp as wp

tunables.GAIN = 5.0
tunables.OFFSET = -1.0


@wp.kernel
def apply_gain_mod(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = a[i] * tunables.GAIN


a = wp.array(np.arange(4, dtype=np.float32))
out = wp.zeros(4, dtype=float)
wp.launch(apply_gain_mod, dim=4, inputs=[a, out])
wp.launch(tunables.tunable_scale, dim=4, inputs=[a])
print(out.numpy(), a.numpy())
