import typing

import numpy as np
import warp as wp

REGISTRY = {}


def register(tag):
    def deco(fn):
        REGISTRY[tag] = fn.__name__
        return fn

    return deco


def trace(fn):
    # marks the function; returns it unchanged so Warp still sees the def
    fn.traced = True
    return fn


@wp.func
@typing.no_type_check
def soft(x: float) -> float:
    return x / (1.0 + wp.abs(x))


@wp.kernel
@trace
def traced_square(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = a[i] * a[i]


@wp.kernel(enable_backward=False)
@register("clamp")
def registered_clamp(a: wp.array(dtype=float), lo: float, hi: float):
    i = wp.tid()
    a[i] = wp.clamp(soft(a[i]), lo, hi)


a = wp.array(np.linspace(-2, 2, 9, dtype=np.float32))
wp.launch(traced_square, dim=9, inputs=[a])
wp.launch(registered_clamp, dim=9, inputs=[a, 0.0, 0.7])
print(a.numpy(), REGISTRY)
