"""Kernels built by a descriptor (__set_name__ / __get__) and by a metaclass's __new__."""

import numpy as np
import warp as wp


class ScaledKernel:
    """Descriptor: the kernel reads the owner's FACTOR when first looked up."""

    def __set_name__(self, owner, name):
        self.name = name
        self.kernel = None

    def __get__(self, obj, owner):
        if self.kernel is None:
            factor = owner.FACTOR

            @wp.kernel
            def scaled(x: wp.array(dtype=float)):
                i = wp.tid()
                x[i] = x[i] * factor

            self.kernel = scaled
        return self.kernel


class Doubler:
    FACTOR = 2.0
    apply = ScaledKernel()


class KernelMeta(type):
    """Turns every method whose name starts with k_ into a Warp kernel."""

    def __new__(mcls, name, bases, ns):
        for key, value in list(ns.items()):
            if key.startswith("k_") and callable(value):
                ns[key] = wp.kernel(value)
        return super().__new__(mcls, name, bases, ns)


class Ops(metaclass=KernelMeta):
    def k_square(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = x[i] * x[i]


x = wp.array(np.arange(5, dtype=np.float32))
wp.launch(Doubler.apply, dim=5, inputs=[x])
wp.launch(Ops.k_square, dim=5, inputs=[x])
print(x.numpy())
