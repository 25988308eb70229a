import numpy as np
import pytest
import warp as wp


def make_gain(g):
    @wp.kernel
    def gain_cf(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] * g

    return gain_cf


def make_shift(s):
    @wp.kernel
    def shift_cf(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] + s

    return shift_cf


class TestOps:
    GAIN = 3.0

    @pytest.fixture
    def gain_kernel(self):
        return make_gain(self.GAIN)

    @pytest.fixture(params=[0.5, -1.0])
    def shift_kernel(self, request):
        return make_shift(request.param), request.param

    def test_gain(self, gain_kernel):
        a = wp.full(3, 1.0, dtype=float)
        wp.launch(gain_kernel, dim=3, inputs=[a])
        np.testing.assert_allclose(a.numpy(), self.GAIN)

    def test_shift(self, shift_kernel):
        kernel, s = shift_kernel
        a = wp.zeros(3, dtype=float)
        wp.launch(kernel, dim=3, inputs=[a])
        np.testing.assert_allclose(a.numpy(), s)


if __name__ == "__main__":
    raise SystemExit(pytest.main([__file__, "-q"]))
