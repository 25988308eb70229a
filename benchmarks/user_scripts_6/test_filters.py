# unittest: a kernel made in setUpClass and stored on the class, kernels made per subTest
import unittest

import numpy as np
import warp as wp


@wp.kernel
def square_kernel(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = a[i] * a[i]


class TestFilters(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        @wp.kernel
        def box3(a: wp.array(dtype=float), b: wp.array(dtype=float)):
            i = wp.tid()
            if i > 0 and i < a.shape[0] - 1:
                b[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0

        cls.box3 = box3

    def test_box(self):
        a = wp.array(np.ones(8, dtype=np.float32))
        b = wp.zeros(8, dtype=float)
        wp.launch(self.box3, dim=8, inputs=[a, b])
        self.assertAlmostEqual(float(b.numpy()[3]), 1.0)

    def test_square(self):
        a = wp.array(np.full(4, 3.0, dtype=np.float32))
        wp.launch(square_kernel, dim=4, inputs=[a])
        np.testing.assert_allclose(a.numpy(), 9.0)

    def test_thresholds(self):
        for t in (0.25, 0.75):
            with self.subTest(t=t):

                @wp.kernel
                def thresh(a: wp.array(dtype=float), out: wp.array(dtype=int)):
                    i = wp.tid()
                    out[i] = wp.where(a[i] > t, 1, 0)

                a = wp.array(np.linspace(0, 1, 5, dtype=np.float32))
                out = wp.zeros(5, dtype=int)
                wp.launch(thresh, dim=5, inputs=[a, out])
                self.assertEqual(int(out.numpy().sum()), int((np.linspace(0, 1, 5) > t).sum()))


if __name__ == "__main__":
    unittest.main(verbosity=2)
