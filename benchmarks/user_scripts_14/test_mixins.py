"""unittest cases sharing their tests through a mixin class, and subTest loops."""

import unittest

import numpy as np
import warp as wp


def make_gain(g):
    @wp.kernel
    def gain_mixin(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] * g

    return gain_mixin


def make_pow(p):
    @wp.kernel
    def pow_sub(a: wp.array(dtype=float), out: wp.array(dtype=float)):
        i = wp.tid()
        out[i] = wp.pow(a[i], float(p))

    return pow_sub


class GainChecks:
    GAIN = 1.0

    def test_gain(self):
        a = wp.full(3, 2.0, dtype=float)
        wp.launch(make_gain(self.GAIN), dim=3, inputs=[a])
        np.testing.assert_allclose(a.numpy(), 2.0 * self.GAIN)


class TestLowGain(GainChecks, unittest.TestCase):
    GAIN = 0.5


class TestHighGain(GainChecks, unittest.TestCase):
    GAIN = 4.0


class TestPowers(unittest.TestCase):
    def test_powers(self):
        for p in (2, 3):
            with self.subTest(p=p):
                a = wp.full(3, 2.0, dtype=float)
                out = wp.zeros(3, dtype=float)
                wp.launch(make_pow(p), dim=3, inputs=[a, out])
                self.assertAlmostEqual(float(out.numpy()[0]), 2.0**p, places=4)


if __name__ == "__main__":
    unittest.main()
