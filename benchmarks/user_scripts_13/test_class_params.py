import sys

import numpy as np
import pytest

import warp as wp


def make_gain(g):
    @wp.kernel
    def gain_p(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = g * a[i]

    return gain_p


def make_shift(s):
    @wp.kernel
    def shift_y(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] + s

    return shift_y


@pytest.mark.parametrize("gain", [0.5, 2.0])
class TestGain:
    def test_scales(self, gain):
        a = wp.ones(4, dtype=float)
        wp.launch(make_gain(gain), dim=4, inputs=[a])
        np.testing.assert_allclose(a.numpy(), gain)

    def test_positive(self, gain):
        assert gain > 0.0


@pytest.fixture(params=[1.0, 3.0])
def shift_kernel(request):
    k = make_shift(request.param)
    yield k, request.param
    wp.synchronize()


def test_shift(shift_kernel):
    k, s = shift_kernel
    a = wp.zeros(4, dtype=float)
    wp.launch(k, dim=4, inputs=[a])
    np.testing.assert_allclose(a.numpy(), s)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
