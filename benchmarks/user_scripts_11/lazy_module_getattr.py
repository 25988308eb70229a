"""Kernels made lazily through a module-level __getattr__ (PEP 562)."""

import warp as wp

_CACHE = {}


def _make_clamp01():
    @wp.kernel
    def clamp01(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = wp.clamp(a[i], 0.0, 1.0)

    return clamp01


def _make_negate():
    @wp.kernel
    def lazy_negate(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = -a[i]

    return lazy_negate


_MAKERS = {"clamp01": _make_clamp01, "negate": _make_negate}


def __getattr__(name):
    if name in _MAKERS:
        if name not in _CACHE:
            _CACHE[name] = _MAKERS[name]()
        return _CACHE[name]
    raise AttributeError(name)


if __name__ == "__main__":
    import sys

    mod = sys.modules[__name__]
    a = wp.array([-1.0, 0.5, 2.0], dtype=float)
    wp.launch(mod.clamp01, dim=3, inputs=[a])
    wp.launch(mod.negate, dim=3, inputs=[a])
    print(a.numpy())
