import json
from pathlib import Path

import warp as wp

PARAMS = json.loads("""
{"stiffness": 120.0, "rest": [0.5, 0.25], "taps": 3}
""")
SIDE = json.loads(Path(__file__).with_suffix(".json").read_text())


@wp.kernel
def spring_json(x: wp.array(dtype=float), f: wp.array(dtype=float)):
    i = wp.tid()
    f[i] = -wp.static(PARAMS["stiffness"]) * (x[i] - wp.static(PARAMS["rest"][0]))


@wp.kernel
def sidecar_gain(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = x[i] * wp.static(SIDE["gain"]) + wp.static(float(SIDE["offsets"][1]))


x = wp.ones(4, dtype=float)
f = wp.zeros(4, dtype=float)
wp.launch(spring_json, dim=4, inputs=[x, f])
wp.launch(sidecar_gain, dim=4, inputs=[x])
print(f.numpy(), x.numpy())
