"""Kernel factories shared by the scripts of this folder."""

import warp as wp


def make_clip(lo=0.0, hi=1.0):
    @wp.kernel
    def clip_sib(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = wp.clamp(a[i], lo, hi)

    return clip_sib


def make_wrap(period):
    @wp.kernel
    def wrap_sib(a: wp.array(dtype=float)):
        i = wp.tid()
        x = a[i]
        a[i] = x - period * wp.floor(x / period)

    return wrap_sib
