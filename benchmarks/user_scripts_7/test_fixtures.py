import sys

import numpy as np
import pytest
import warp as wp
from conftest import conftest_fill


@wp.kernel
def add_arrays(a: wp.array(dtype=float), b: wp.array(dtype=float), c: wp.array(dtype=float)):
    i = wp.tid()
    c[i] = a[i] + b[i]


def test_add():
    a = wp.ones(4, dtype=float)
    c = wp.zeros(4, dtype=float)
    wp.launch(add_arrays, dim=4, inputs=[a, a, c])
    assert np.allclose(c.numpy(), 2.0)


def test_scale(scale_kernel):
    kernel, factor = scale_kernel
    a = wp.zeros(4, dtype=float)
    wp.launch(conftest_fill, dim=4, inputs=[a, 3.0])
    wp.launch(kernel, dim=4, inputs=[a])
    assert np.allclose(a.numpy(), 3.0 * factor)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
