"""Kernel factories a sibling script calls; nothing here calls them."""

import warp as wp


def make_clip(lo, hi):
    @wp.kernel
    def clip(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = wp.clamp(x[i], lo, hi)

    return clip


def make_wave(harmonics):
    @wp.kernel
    def wave(t: wp.array(dtype=float), y: wp.array(dtype=float)):
        i = wp.tid()
        acc = float(0.0)
        for h in range(1, harmonics + 1):
            acc += wp.sin(float(h) * t[i]) / float(h)
        y[i] = acc

    return wave
