from pathlib import Path

import warp as wp
import yaml

CFG = yaml.safe_load((Path(__file__).parent / "sim.yaml").read_text())
GAINS = {name: float(g) for name, g in CFG["gains"].items()}


def make_channel(gain: float, clamp: float):
    @wp.kernel
    def channel_gain(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = wp.min(a[i] * gain, clamp)

    return channel_gain


@wp.kernel
def damp_yaml(v: wp.array(dtype=float)):
    i = wp.tid()
    v[i] = v[i] * wp.static(1.0 - CFG["solver"]["damping"])


CHANNELS = {name: make_channel(g, CFG["solver"]["clamp"]) for name, g in GAINS.items()}

v = wp.ones(4, dtype=float)
wp.launch(damp_yaml, dim=4, inputs=[v])
for k in CHANNELS.values():
    wp.launch(k, dim=4, inputs=[v])
print(v.numpy())
