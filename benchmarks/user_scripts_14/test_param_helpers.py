import pytest
import numpy as np
import warp as wp


def make_scale(s):
    @wp.kernel
    def scale_helper(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] * s

    return scale_helper


def make_shift(n):
    @wp.kernel
    def shift_range(a: wp.array(dtype=int)):
        i = wp.tid()
        a[i] = a[i] + n

    return shift_range


def scales():
    return [0.5, 2.0]


@pytest.mark.parametrize("s", scales())
def test_scale(s):
    a = wp.full(4, 1.0, dtype=float)
    wp.launch(make_scale(s), dim=4, inputs=[a])
    np.testing.assert_allclose(a.numpy(), s)


@pytest.mark.parametrize("n", range(1, 3))
def test_shift(n):
    a = wp.zeros(4, dtype=int)
    wp.launch(make_shift(n), dim=4, inputs=[a])
    assert int(a.numpy()[0]) == n


if __name__ == "__main__":
    raise SystemExit(pytest.main([__file__, "-q"]))
