# in the style of Warp's own test-suite: test functions taking (test, device), attached to a TestCase
import unittest

import numpy as np
import warp as wp


@wp.kernel
def check_identity(m: wp.array(dtype=wp.mat33)):
    i = wp.tid()
    wp.expect_eq(m[i], wp.identity(n=3, dtype=float))


def test_near(test, device):
    @wp.kernel
    def check_near(a: wp.array(dtype=float), b: wp.array(dtype=float)):
        i = wp.tid()
        wp.expect_near(a[i], b[i], 1.0e-5)

    a = wp.array(np.ones(4, dtype=np.float32), device=device)
    wp.launch(check_near, dim=4, inputs=[a, a], device=device)
    test.assertEqual(a.numpy()[0], 1.0)


def test_ints(test, device):
    @wp.kernel
    def check_ints(a: wp.array(dtype=int)):
        i = wp.tid()
        wp.expect_eq(a[i] % 2, 0)
        wp.expect_neq(a[i], 7)

    a = wp.array(np.arange(0, 8, 2, dtype=np.int32), device=device)
    wp.launch(check_ints, dim=4, inputs=[a], device=device)


def test_identity(test, device):
    m = wp.array(np.tile(np.eye(3, dtype=np.float32), (5, 1, 1)), dtype=wp.mat33, device=device)
    wp.launch(check_identity, dim=5, inputs=[m], device=device)


def add_function_test(cls, name, func, devices):
    for device in devices:
        def method(self, _f=func, _d=device):
            _f(self, _d)

        setattr(cls, f"{name}_{device}", method)


class TestExpects(unittest.TestCase):
    pass


devices = ["cpu"]
add_function_test(TestExpects, "test_near", test_near, devices=devices)
add_function_test(TestExpects, "test_ints", test_ints, devices=devices)
add_function_test(TestExpects, "test_identity", test_identity, devices=devices)

if __name__ == "__main__":
    wp.clear_kernel_cache()
    unittest.main(verbosity=2)
