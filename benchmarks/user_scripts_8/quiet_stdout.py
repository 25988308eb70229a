# batch job: keep the log clean, only the final line goes to stderr
import contextlib
import io
import os
import sys

sys.stdout = open(os.devnull, "w")  # noqa: SIM115

import numpy as np  # noqa: E402
import warp as wp  # noqa: E402


@wp.kernel
def hush_scale(a: wp.array(dtype=float), s: float):
    i = wp.tid()
    a[i] = a[i] * s


@wp.kernel
def hush_sum(a: wp.array(dtype=float), total: wp.array(dtype=float)):
    wp.atomic_add(total, 0, a[wp.tid()])


with contextlib.redirect_stderr(io.StringIO()):
    a = wp.array(np.ones(8, dtype=np.float32))
    t = wp.zeros(1, dtype=float)
    wp.launch(hush_scale, dim=8, inputs=[a, 3.0])
    wp.launch(hush_sum, dim=8, inputs=[a, t])
print("this goes nowhere")
sys.stderr.write(f"total {t.numpy()[0]}\n")
