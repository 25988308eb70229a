import dataclasses
from dataclasses import dataclass

import warp as wp

RAW = {"dt": 0.02, "gravity": -9.8, "comment": "from the lab notebook"}
COEFFS = [1.0, 0.5, 0.25]


@dataclass
class Cfg:
    dt: float = 0.01
    gravity: float = -9.81

    @classmethod
    def from_dict(cls, d):
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})


def make_fall(cfg: Cfg):
    dt = cfg.dt
    g = cfg.gravity

    @wp.kernel
    def fall_from_dict(y: wp.array(dtype=float), vy: wp.array(dtype=float)):
        i = wp.tid()
        vy[i] = vy[i] + g * dt
        y[i] = y[i] + vy[i] * dt

    return fall_from_dict


def make_term(order, coeff):
    @wp.kernel
    def poly_term(x: wp.array(dtype=float), acc: wp.array(dtype=float)):
        i = wp.tid()
        acc[i] = acc[i] + coeff * wp.pow(x[i], float(order))

    return poly_term


def main():
    cfg = Cfg.from_dict(RAW)
    y = wp.zeros(4, dtype=float)
    vy = wp.zeros(4, dtype=float)
    wp.launch(make_fall(cfg), dim=4, inputs=[y, vy])
    x = wp.full(4, 2.0, dtype=float)
    acc = wp.zeros(4, dtype=float)
    for order, coeff in enumerate(COEFFS, start=1):
        wp.launch(make_term(order, coeff), dim=4, inputs=[x, acc])
    print(y.numpy(), acc.numpy())


if __name__ == "__main__":
    main()
