import unittest

import numpy as np

import warp as wp


def make_clamp(lo: float, hi: float):
    @wp.kernel
    def clamp_test(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = wp.clamp(a[i], lo, hi)

    return clamp_test


class TestKernels(unittest.TestCase):
    BOUNDS = [(0.0, 1.0), (-0.5, 0.5)]

    def test_clamp_bounds(self):
        for lo, hi in self.BOUNDS:
            a = wp.array([-2.0, 0.25, 2.0], dtype=float)
            wp.launch(make_clamp(lo, hi), dim=3, inputs=[a])
            self.assertLessEqual(float(np.max(a.numpy())), hi)

    @unittest.skipUnless(wp.is_cuda_available(), "needs CUDA")
    def test_cuda_only(self):
        @wp.kernel
        def skipped_local(a: wp.array(dtype=float)):
            a[wp.tid()] = 1.0

        a = wp.zeros(4, dtype=float, device="cuda:0")
        wp.launch(skipped_local, dim=4, inputs=[a], device="cuda:0")


if __name__ == "__main__":
    unittest.main()
