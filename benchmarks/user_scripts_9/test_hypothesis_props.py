"""Property tests with hypothesis: a kernel made inside a @given test from a drawn value."""

import unittest

import numpy as np
import warp as wp
from hypothesis import given, settings
from hypothesis import strategies as st


@wp.kernel
def abs_diff(a: wp.array(dtype=float), b: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = wp.abs(a[i] - b[i])


class TestProps(unittest.TestCase):
    @settings(max_examples=3, deadline=None)
    @given(st.sampled_from([0.5, 2.0]))
    def test_scale_roundtrip(self, factor):
        @wp.kernel
        def scale_by(x: wp.array(dtype=float)):
            i = wp.tid()
            x[i] = x[i] * factor

        x = wp.array(np.ones(4, dtype=np.float32))
        wp.launch(scale_by, dim=4, inputs=[x])
        self.assertAlmostEqual(float(x.numpy()[0]), factor)

    def test_abs_diff(self):
        a = wp.array(np.arange(4, dtype=np.float32))
        b = wp.array(np.ones(4, dtype=np.float32))
        out = wp.zeros(4, dtype=float)
        wp.launch(abs_diff, dim=4, inputs=[a, b, out])
        np.testing.assert_allclose(out.numpy(), [1, 0, 1, 2])


if __name__ == "__main__":
    unittest.main()
