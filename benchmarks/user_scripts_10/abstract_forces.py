import abc

import warp as wp


class Force(abc.ABC):
    COEFF = 0.0

    @abc.abstractmethod
    def describe(self) -> str: ...

    @classmethod
    def build(cls):
        coeff = cls.COEFF

        @wp.kernel
        def apply_force(v: wp.array(dtype=float), f: wp.array(dtype=float)):
            i = wp.tid()
            f[i] = f[i] - coeff * v[i]

        return apply_force


class Drag(Force):
    COEFF = 0.3

    def describe(self):
        return "drag"


class Spring(Force):
    COEFF = 12.0

    def describe(self):
        return "spring"

    @staticmethod
    @wp.kernel
    def spring_potential(x: wp.array(dtype=float), e: wp.array(dtype=float)):
        i = wp.tid()
        e[i] = 0.5 * 12.0 * x[i] * x[i]


v = wp.ones(4, dtype=float)
f = wp.zeros(4, dtype=float)
for cls in (Drag, Spring):
    wp.launch(cls.build(), dim=4, inputs=[v, f])
e = wp.zeros(4, dtype=float)
wp.launch(Spring.spring_potential, dim=4, inputs=[v, e])
print(f.numpy(), e.numpy())
