# many scripts start by moving to their own folder so relative paths work
import os

os.chdir(os.path.dirname(os.path.abspath(__file__)))

import json  # noqa: E402

import warp as wp  # noqa: E402

with open("sim_settings.json") as f:
    SETTINGS = json.load(f)

DAMPING = wp.constant(float(SETTINGS["damping"]))
N = int(SETTINGS["count"])


@wp.kernel
def damp(v: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    v[i] = v[i] * DAMPING


v = wp.full(N, wp.vec2(1.0, 2.0), dtype=wp.vec2)
wp.launch(damp, dim=N, inputs=[v])
print(v.numpy()[0])
