from dataclasses import dataclass, field

import warp as wp


def make_relax(omega: float):
    @wp.kernel
    def relax_omega(x: wp.array(dtype=float), target: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = (1.0 - omega) * x[i] + omega * target[i]

    return relax_omega


def make_decay(rate):
    @wp.kernel
    def decay_rate(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = x[i] * wp.exp(-rate)

    return decay_rate


@dataclass
class Solver:
    relax: wp.Kernel = field(default_factory=lambda: make_relax(0.5))
    decay: wp.Kernel = field(default_factory=lambda: make_decay(0.1))
    n: int = 8

    def run(self):
        x = wp.zeros(self.n, dtype=float)
        t = wp.ones(self.n, dtype=float)
        wp.launch(self.relax, dim=self.n, inputs=[x, t])
        wp.launch(self.decay, dim=self.n, inputs=[x])
        return x.numpy()


print(Solver().run())
