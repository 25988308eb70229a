import unittest

import numpy as np
import warp as wp


def make_gain(g: float):
    @wp.kernel
    def gain_async(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = x[i] * g

    return gain_async


def make_offset(o: float):
    @wp.kernel
    def offset_async(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = x[i] + o

    return offset_async


class TestAsyncKernels(unittest.IsolatedAsyncioTestCase):
    GAIN = 3.0

    async def asyncSetUp(self):
        self.kernel = make_gain(self.GAIN)

    async def test_gain(self):
        x = wp.ones(4, dtype=float)
        wp.launch(self.kernel, dim=4, inputs=[x])
        self.assertTrue(np.allclose(x.numpy(), self.GAIN))

    async def test_offset(self):
        x = wp.zeros(4, dtype=float)
        wp.launch(make_offset(1.5), dim=4, inputs=[x])
        self.assertTrue(np.allclose(x.numpy(), 1.5))


if __name__ == "__main__":
    unittest.main()
