import itertools
import sys

import numpy as np
import pytest

import warp as wp

pytestmark = pytest.mark.parametrize("order", [1, 2])


def make_power(order):
    @wp.kernel
    def power_mark(a: wp.array(dtype=float), out: wp.array(dtype=float)):
        i = wp.tid()
        v = float(1.0)
        for _ in range(order):
            v = v * a[i]
        out[i] = v

    return power_mark


def make_axpb(a, b):
    @wp.kernel
    def axpb_prod(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = a * x[i] + b

    return axpb_prod


def test_power(order):
    a = wp.full(3, 2.0, dtype=float)
    out = wp.zeros(3, dtype=float)
    wp.launch(make_power(order), dim=3, inputs=[a, out])
    np.testing.assert_allclose(out.numpy(), 2.0**order)


@pytest.mark.parametrize("a, b", list(itertools.product([1.0, 2.0], [0.0, 0.5])))
def test_axpb(order, a, b):
    x = wp.ones(3, dtype=float)
    wp.launch(make_axpb(a * order, b), dim=3, inputs=[x])
    np.testing.assert_allclose(x.numpy(), a * order + b)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
