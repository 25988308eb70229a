import unittest

import numpy as np
import warp as wp


def make_unary_test_kernel(func, dtype):
    @wp.kernel
    def unary(inputs: wp.array(dtype=dtype), outputs: wp.array(dtype=dtype)):
        i = wp.tid()
        outputs[i] = func(inputs[i])

    return unary


def make_clamp_kernel(lo: float, hi: float):
    def clamp_kernel(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = wp.clamp(a[i], lo, hi)

    return wp.Kernel(clamp_kernel, key=f"clamp_{lo}_{hi}")


class TestOps(unittest.TestCase):
    def test_sqrt(self):
        kernel = make_unary_test_kernel(wp.sqrt, wp.float32)
        x = wp.array(np.array([4.0, 9.0], dtype=np.float32))
        y = wp.empty_like(x)
        wp.launch(kernel, dim=2, inputs=[x, y])
        np.testing.assert_allclose(y.numpy(), [2.0, 3.0])

    def test_abs_f64(self):
        kernel = make_unary_test_kernel(wp.abs, wp.float64)
        x = wp.array(np.array([-4.0, 9.0]), dtype=wp.float64)
        y = wp.empty_like(x)
        wp.launch(kernel, dim=2, inputs=[x, y])
        np.testing.assert_allclose(y.numpy(), [4.0, 9.0])

    def test_clamp(self):
        kernel = make_clamp_kernel(0.0, 1.0)
        a = wp.array(np.array([-1.0, 0.5, 2.0], dtype=np.float32))
        wp.launch(kernel, dim=3, inputs=[a])
        np.testing.assert_allclose(a.numpy(), [0.0, 0.5, 1.0])


if __name__ == "__main__":
    unittest.main()
