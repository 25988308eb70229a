import numpy as np
import warp as wp


class Config:
    def __init__(self):
        self.dt = 0.01
        self.steps = 3
        self.damping = 0.98


cfg = Config()
cfg.dt = 0.005  # tweaked after construction


@wp.kernel
def integrate_cfg(x: wp.array(dtype=float), v: wp.array(dtype=float)):
    i = wp.tid()
    for _ in range(wp.static(cfg.steps)):
        x[i] = x[i] + v[i] * wp.static(cfg.dt)


def make_damper(c):
    @wp.kernel
    def damp(v: wp.array(dtype=float)):
        i = wp.tid()
        v[i] = v[i] * wp.static(c.damping)

    return damp


x = wp.zeros(4, dtype=float)
v = wp.ones(4, dtype=float)
wp.launch(integrate_cfg, dim=4, inputs=[x, v])
wp.launch(make_damper(cfg), dim=4, inputs=[v])
print(x.numpy(), v.numpy())
