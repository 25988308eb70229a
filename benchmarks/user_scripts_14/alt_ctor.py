import os
from dataclasses import dataclass

import warp as wp


@dataclass
class GainCfg:
    gain: float = 1.0

    @classmethod
    def from_env(cls):
        return cls(gain=float(os.environ.get("GAIN", "2.5")))


@dataclass
class ClipCfg:
    lo: float
    hi: float

    @classmethod
    def default(cls):
        return cls(lo=-0.25, hi=0.75)


def make_gain(g):
    @wp.kernel
    def gain_alt(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] * g

    return gain_alt


def make_clip(lo, hi):
    @wp.kernel
    def clip_alt(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = wp.clamp(a[i], lo, hi)

    return clip_alt


def main():
    g = GainCfg.from_env()
    c = ClipCfg.default()
    a = wp.full(4, 0.5, dtype=float)
    wp.launch(make_gain(g.gain), dim=4, inputs=[a])
    wp.launch(make_clip(c.lo, c.hi), dim=4, inputs=[a])
    print(a.numpy())


if __name__ == "__main__":
    main()
