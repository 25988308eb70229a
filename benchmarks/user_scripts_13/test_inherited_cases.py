import unittest

import numpy as np

import warp as wp


def make_damp(rate):
    @wp.kernel
    def damp_ut(v: wp.array(dtype=float)):
        i = wp.tid()
        v[i] = v[i] * (1.0 - rate)

    return damp_ut


def make_scale(factor):
    @wp.kernel
    def scale_ut(v: wp.array(dtype=float)):
        i = wp.tid()
        v[i] = v[i] * factor

    return scale_ut


class TestDamp(unittest.TestCase):
    RATE = 0.5

    def setUp(self):
        self.kernel = make_damp(self.RATE)

    def test_decays(self):
        v = wp.ones(4, dtype=float)
        wp.launch(self.kernel, dim=4, inputs=[v])
        np.testing.assert_allclose(v.numpy(), 1.0 - self.RATE, rtol=1e-6)


class TestDampStrong(TestDamp):
    RATE = 0.9


class TestScale(unittest.TestCase):
    FACTOR = 3.0

    @classmethod
    def setUpClass(cls):
        cls.k = make_scale(cls.FACTOR)

    def test_scale(self):
        v = wp.ones(4, dtype=float)
        wp.launch(self.k, dim=4, inputs=[v])
        self.assertAlmostEqual(float(v.numpy()[0]), self.FACTOR)


if __name__ == "__main__":
    unittest.main()
