"""Unittest cases of the capture fixture, run by module name (`capfix.unit_cases`) in unittest mode.

Not named `test_*`: the repository's own pytest must not collect them.
"""

import unittest

import numpy as np
import warp as wp

from capfix import kernels as k


class TestScale(unittest.TestCase):
    def test_scale(self):
        a = wp.array(np.arange(6, dtype=np.float32), dtype=float, device="cpu")
        out = wp.zeros(6, dtype=float, device="cpu")
        wp.launch(k.scale, dim=6, inputs=[a, 2.0], outputs=[out], device="cpu")
        np.testing.assert_array_equal(out.numpy(), np.arange(6, dtype=np.float32) * 2.0)

    def test_fails_on_purpose(self):
        self.assertEqual(1, 2)


if __name__ == "__main__":
    wp.clear_kernel_cache()  # what Warp's own test files do when run as scripts: the capture must not
    unittest.main()
