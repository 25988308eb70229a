import dataclasses
from dataclasses import dataclass

import warp as wp


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    dt: float = 0.02
    gain: float = 1.0
    floor: float = -1.0


CFG = Settings(dt=0.05)


@wp.kernel
def integrate_slots(x: wp.array(dtype=float), v: wp.array(dtype=float)):
    i = wp.tid()
    v[i] = v[i] - 9.8 * wp.static(CFG.dt)
    x[i] = wp.max(x[i] + wp.static(CFG.dt) * v[i], wp.static(CFG.floor))


def make_gain(cfg: Settings):
    g = cfg.gain

    @wp.kernel
    def gain_slots(v: wp.array(dtype=float)):
        i = wp.tid()
        v[i] = g * v[i]

    return gain_slots


def main():
    x = wp.zeros(4, dtype=float)
    v = wp.zeros(4, dtype=float)
    wp.launch(integrate_slots, dim=4, inputs=[x, v])
    wp.launch(make_gain(dataclasses.replace(CFG, gain=3.0)), dim=4, inputs=[v])
    print(x.numpy(), v.numpy())


if __name__ == "__main__":
    main()
