"""Each solver subclass carries its own `step` kernel in the class body."""
import numpy as np
import warp as wp


class Solver:
    step = None
    name = "base"

    def __init__(self, n):
        self.x = wp.array(np.linspace(0, 1, n).astype(np.float32), device="cpu")

    def run(self, iters=3):
        for _ in range(iters):
            wp.launch(type(self).step, dim=self.x.shape, inputs=[self.x], device="cpu")
        return self.x.numpy()


class SquareSolver(Solver):
    name = "square"

    @wp.kernel
    def step(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = x[i] * x[i]


class SqrtSolver(Solver):
    name = "sqrt"

    @wp.kernel
    def step(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = wp.sqrt(x[i])


class Outer:
    class Inner:
        @wp.kernel
        def halve(x: wp.array(dtype=float)):
            i = wp.tid()
            x[i] = x[i] * 0.5


for cls in (SquareSolver, SqrtSolver):
    print(cls.name, cls(5).run()[-2])
y = wp.ones(3, dtype=float, device="cpu")
wp.launch(Outer.Inner.halve, dim=3, inputs=[y], device="cpu")
print(y.numpy())
