import unittest

import numpy as np
import pytest
import warp as wp

wp.init()


class TestKernels(unittest.TestCase):
    def test_add(self):
        n = 16

        @wp.kernel
        def add_one(a: wp.array(dtype=float)):
            i = wp.tid()
            a[i] = a[i] + 1.0

        a = wp.zeros(n, dtype=float)
        wp.launch(add_one, dim=n, inputs=[a])
        self.assertTrue(np.allclose(a.numpy(), 1.0))

    def test_scale_captured(self):
        factor = 3.0

        @wp.kernel
        def scale_by_factor(a: wp.array(dtype=float)):
            i = wp.tid()
            a[i] = a[i] * factor

        a = wp.ones(8, dtype=float)
        wp.launch(scale_by_factor, dim=8, inputs=[a])
        np.testing.assert_allclose(a.numpy(), 3.0)


@pytest.mark.parametrize("dtype", [wp.float32, wp.float64])
def test_negate(dtype):
    @wp.kernel
    def negate(a: wp.array(dtype=dtype)):
        i = wp.tid()
        a[i] = -a[i]

    a = wp.ones(4, dtype=dtype)
    wp.launch(negate, dim=4, inputs=[a])
    assert np.all(a.numpy() == -1)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_matrix_identity(n):
    mat_t = wp.types.matrix(shape=(n, n), dtype=float)

    @wp.kernel
    def make_identity(out: wp.array(dtype=mat_t)):
        out[wp.tid()] = wp.identity(n=n, dtype=float)

    out = wp.zeros(1, dtype=mat_t)
    wp.launch(make_identity, dim=1, inputs=[out])


if __name__ == "__main__":
    unittest.main()
