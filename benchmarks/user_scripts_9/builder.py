"""A builder with chained setters whose build() makes the kernel; class keywords in __init_subclass__."""

import numpy as np
import warp as wp


class AffineBuilder:
    def __init__(self):
        self._gain = 1.0
        self._bias = 0.0

    def gain(self, g):
        self._gain = g
        return self

    def bias(self, b):
        self._bias = b
        return self

    def build(self):
        gain = self._gain
        bias = self._bias

        @wp.kernel
        def affine(x: wp.array(dtype=float)):
            i = wp.tid()
            x[i] = x[i] * gain + bias

        return affine


class Filter:
    registry = {}

    def __init_subclass__(cls, cutoff=1.0, **kwargs):
        super().__init_subclass__(**kwargs)

        @wp.kernel
        def clip_above(x: wp.array(dtype=float)):
            i = wp.tid()
            x[i] = wp.min(x[i], cutoff)

        cls.kernel = clip_above
        Filter.registry[cls.__name__] = cls


class Soft(Filter, cutoff=0.5):
    pass


class Hard(Filter, cutoff=2.0):
    pass


if __name__ == "__main__":
    k = AffineBuilder().gain(2.0).bias(0.5).build()
    x = wp.array(np.arange(8, dtype=np.float32))
    wp.launch(k, dim=8, inputs=[x])
    wp.launch(Soft.kernel, dim=8, inputs=[x])
    wp.launch(Filter.registry["Hard"].kernel, dim=8, inputs=[x])
    print(x.numpy())
