import unittest

import numpy as np
import warp as wp


@wp.kernel
def prefix_max(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    m = x[0]
    for j in range(i + 1):
        m = wp.max(m, x[j])
    out[i] = m


@wp.kernel
def count_nonzero(x: wp.array(dtype=float), n: wp.array(dtype=wp.int32)):
    i = wp.tid()
    if x[i] != 0.0:
        wp.atomic_add(n, 0, 1)


class TestReductions(unittest.TestCase):
    def setUp(self):
        self.device = "cpu"

    def test_prefix_max(self):
        x = wp.array([1.0, 3.0, 2.0, 5.0], dtype=float, device=self.device)
        out = wp.zeros(4, dtype=float, device=self.device)
        wp.launch(prefix_max, dim=4, inputs=[x, out], device=self.device)
        np.testing.assert_allclose(out.numpy(), [1.0, 3.0, 3.0, 5.0])

    def test_count_nonzero(self):
        x = wp.array([0.0, 1.0, 0.0, 2.0], dtype=float, device=self.device)
        n = wp.zeros(1, dtype=wp.int32, device=self.device)
        wp.launch(count_nonzero, dim=4, inputs=[x, n], device=self.device)
        self.assertEqual(n.numpy()[0], 2)

    def test_local_kernel(self):
        @wp.kernel
        def negate_local(x: wp.array(dtype=float)):
            i = wp.tid()
            x[i] = -x[i]

        x = wp.ones(3, dtype=float, device=self.device)
        wp.launch(negate_local, dim=3, inputs=[x], device=self.device)
        self.assertTrue((x.numpy() == -1.0).all())


if __name__ == "__main__":
    unittest.main(verbosity=2)
