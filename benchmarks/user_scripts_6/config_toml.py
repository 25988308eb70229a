# settings read with tomllib next to the script; the dtype picked by name with getattr(wp, ...)
import tomllib
from pathlib import Path

import numpy as np
import warp as wp

with open(Path(__file__).with_name("settings.toml"), "rb") as fh:
    CONF = tomllib.load(fh)["sim"]

real = getattr(wp, CONF["dtype"])
SCALE = wp.constant(real(CONF["scale"]))
LO = wp.constant(real(CONF["lo"]))
HI = wp.constant(real(CONF["hi"]))


@wp.kernel
def scale_by(a: wp.array(dtype=real)):
    i = wp.tid()
    a[i] = a[i] * SCALE


@wp.kernel
def clamp_all(a: wp.array(dtype=real)):
    i = wp.tid()
    a[i] = wp.clamp(a[i], LO, HI)


a = wp.array(np.linspace(-1, 1, 5), dtype=real)
wp.launch(scale_by, dim=5, inputs=[a])
wp.launch(clamp_all, dim=5, inputs=[a])
print(a.numpy())
