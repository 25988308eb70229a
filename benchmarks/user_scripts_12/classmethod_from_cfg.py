import warp as wp

CONFIG = {"stiffness": 40.0, "mass": 2.0}


class Spring:
    def __init__(self, stiffness: float, mass: float):
        omega2 = stiffness / mass

        @wp.kernel
        def spring_accel(x: wp.array(dtype=float), a: wp.array(dtype=float)):
            i = wp.tid()
            a[i] = -omega2 * x[i]

        self.kernel = spring_accel

    @classmethod
    def from_config(cls, cfg: dict):
        return cls(**cfg)

    @staticmethod
    def make_energy(k):
        @wp.kernel
        def spring_energy_k(x: wp.array(dtype=float), e: wp.array(dtype=float)):
            i = wp.tid()
            wp.atomic_add(e, 0, 0.5 * k * x[i] * x[i])

        return spring_energy_k


if __name__ == "__main__":
    s = Spring.from_config(CONFIG)
    x = wp.ones(4, dtype=float)
    acc = wp.zeros(4, dtype=float)
    wp.launch(s.kernel, dim=4, inputs=[x, acc])
    e = wp.zeros(1, dtype=float)
    wp.launch(Spring.make_energy(CONFIG["stiffness"]), dim=4, inputs=[x, e])
    print(acc.numpy(), e.numpy())
