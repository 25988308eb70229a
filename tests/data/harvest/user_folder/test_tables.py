from dataclasses import dataclass

import pytest
import warp as wp


@wp.func
def plus(a: float, b: float):
    return a + b


@wp.func
def times(a: float, b: float):
    return a * b


OPS = [plus, times]


@wp.kernel
def each_op(a: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    for k in range(wp.static(len(OPS))):
        out[k, i] = wp.static(OPS[k])(a[i], a[i])


@pytest.mark.parametrize("dtype", [wp.float32, wp.float64])
def test_negate(dtype):
    @wp.kernel
    def negate(a: wp.array(dtype=dtype)):
        a[wp.tid()] = -a[wp.tid()]


@dataclass
class Config:
    dt: float = 0.5


def make_step(cfg: Config):
    dt = cfg.dt

    @wp.kernel
    def step(x: wp.array(dtype=float)):
        x[wp.tid()] = x[wp.tid()] + dt

    return step


if __name__ == "__main__":
    make_step(Config(dt=0.25))
