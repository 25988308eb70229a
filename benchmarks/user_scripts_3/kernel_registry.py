"""Kernels registered into a dict by a decorator of our own."""

import warp as wp

REGISTRY = {}


def register(name):
    def deco(fn):
        REGISTRY[name] = wp.kernel(fn)
        return REGISTRY[name]

    return deco


@register("abs")
def abs_kernel(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = wp.abs(a[i])


@register("sqrt")
def sqrt_kernel(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = wp.sqrt(wp.abs(a[i]))


for name, k in REGISTRY.items():
    a = wp.array([-4.0, 9.0], dtype=float, device="cpu")
    wp.launch(k, dim=2, inputs=[a], device="cpu")
    print(name, a.numpy())
