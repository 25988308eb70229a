from dataclasses import dataclass, field

import warp as wp


def make_gain(g: float):
    @wp.kernel
    def gain_post(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = x[i] * g

    return gain_post


def make_inv_mass(inv_m: float):
    @wp.kernel
    def inv_mass_post(f: wp.array(dtype=float), a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = f[i] * inv_m

    return inv_mass_post


@dataclass
class Amplifier:
    gain: float = 2.0
    kernel: wp.Kernel = field(init=False)

    def __post_init__(self):
        self.kernel = make_gain(self.gain)


@dataclass
class Body:
    mass: float
    inv_mass: float = field(init=False)

    def __post_init__(self):
        self.inv_mass = 1.0 / self.mass
        self.accel = make_inv_mass(self.inv_mass)


if __name__ == "__main__":
    amp = Amplifier(3.0)
    body = Body(mass=4.0)
    x = wp.full(3, 1.0, dtype=float)
    a = wp.zeros(3, dtype=float)
    wp.launch(amp.kernel, dim=3, inputs=[x])
    wp.launch(body.accel, dim=3, inputs=[x, a])
    print(a.numpy())
