# kernels made in a @property (cached on the instance), in a @classmethod, and launched by __call__
from dataclasses import dataclass, field

import warp as wp


@dataclass
class Integrator:
    dt: float = 0.01
    drag: float = 0.1
    _kernel: object = field(default=None, repr=False)

    @property
    def step_kernel(self):
        if self._kernel is None:
            drag = self.drag

            @wp.kernel
            def advance(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), dt: float):
                i = wp.tid()
                v[i] = v[i] * (1.0 - drag * dt)
                x[i] = x[i] + v[i] * dt

            self._kernel = advance
        return self._kernel

    @classmethod
    def build(cls, n):
        @wp.kernel
        def reset(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3)):
            i = wp.tid()
            x[i] = wp.vec3(float(i), 0.0, 0.0)
            v[i] = wp.vec3(0.0, 1.0, 0.0)

        self = cls()
        self.x = wp.zeros(n, dtype=wp.vec3)
        self.v = wp.zeros(n, dtype=wp.vec3)
        wp.launch(reset, dim=n, inputs=[self.x, self.v])
        return self

    def __call__(self, steps=3):
        for _ in range(steps):
            wp.launch(self.step_kernel, dim=self.x.shape[0], inputs=[self.x, self.v, self.dt])
        return self.x


if __name__ == "__main__":
    sim = Integrator.build(5)
    print(sim().numpy()[1])
