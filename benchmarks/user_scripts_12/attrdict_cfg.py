from collections import ChainMap

import warp as wp


class AttrDict(dict):
    """The usual 'easydict' settings object."""

    __getattr__ = dict.__getitem__
    __setattr__ = dict.__setitem__


CFG = AttrDict(dt=0.01, damping=0.2)
CFG.substeps = 4

DEFAULTS = {"k": 100.0, "rest": 1.0}
OVERRIDES = {"k": 250.0}
SPRING = ChainMap(OVERRIDES, DEFAULTS)


@wp.kernel
def damp_attrdict(v: wp.array(dtype=float)):
    i = wp.tid()
    for _ in range(wp.static(CFG.substeps)):
        v[i] = v[i] * (1.0 - wp.static(CFG.damping * CFG.dt))


@wp.kernel
def spring_chainmap(x: wp.array(dtype=float), f: wp.array(dtype=float)):
    i = wp.tid()
    f[i] = -wp.static(SPRING["k"]) * (x[i] - wp.static(SPRING["rest"]))


if __name__ == "__main__":
    v = wp.ones(4, dtype=float)
    wp.launch(damp_attrdict, dim=4, inputs=[v])
    f = wp.zeros(4, dtype=float)
    wp.launch(spring_chainmap, dim=4, inputs=[v, f])
    print(v.numpy(), f.numpy())
