import unittest

import numpy as np
import warp as wp

SHIFT_KERNEL = None


def make_shift(offset: float):
    @wp.kernel
    def shift_by(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] + offset

    return shift_by


def setUpModule():
    global SHIFT_KERNEL
    wp.init()
    SHIFT_KERNEL = make_shift(0.25)


class TestShift(unittest.TestCase):
    def test_shift(self):
        a = wp.zeros(4, dtype=float)
        wp.launch(SHIFT_KERNEL, dim=4, inputs=[a])
        np.testing.assert_allclose(a.numpy(), 0.25)

    def test_local_abs(self):
        @wp.kernel
        def abs_local(a: wp.array(dtype=float)):
            i = wp.tid()
            a[i] = wp.abs(a[i])

        a = wp.full(3, -2.0, dtype=float)
        wp.launch(abs_local, dim=3, inputs=[a])
        self.assertEqual(float(a.numpy()[0]), 2.0)


if __name__ == "__main__":
    unittest.main(verbosity=1)
