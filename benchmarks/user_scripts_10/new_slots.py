import warp as wp


class Stepper:
    __slots__ = ("dt", "kernel")

    def __new__(cls, dt: float):
        self = super().__new__(cls)
        self.dt = dt

        @wp.kernel
        def euler_slot(x: wp.array(dtype=float), v: wp.array(dtype=float)):
            i = wp.tid()
            x[i] = x[i] + dt * v[i]

        self.kernel = euler_slot
        return self

    def __call__(self, x, v):
        wp.launch(self.kernel, dim=x.shape[0], inputs=[x, v])


class Registry:
    builders = {}

    @classmethod
    def register(cls, name):
        def deco(fn):
            cls.builders[name] = fn
            return fn

        return deco


@Registry.register("square")
def _build_square():
    @wp.kernel
    def reg_square(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = x[i] * x[i]

    return reg_square


x = wp.zeros(3, dtype=float)
v = wp.ones(3, dtype=float)
Stepper(0.1)(x, v)
wp.launch(Registry.builders["square"](), dim=3, inputs=[x])
print(x.numpy())
