import numpy as np
import pytest
import warp as wp


def make_threshold(level: float):
    @wp.kernel
    def above(a: wp.array(dtype=float), out: wp.array(dtype=int)):
        i = wp.tid()
        out[i] = wp.where(a[i] > level, 1, 0)

    return above


@wp.kernel
def double_in_place(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = 2.0 * a[i]


CASES = list(zip([0.5, 1.5], [2, 1]))


@pytest.fixture
def level():
    return 0.75


@pytest.fixture
def threshold_kernel(level):
    return make_threshold(level)


def test_threshold(threshold_kernel):
    a = wp.array(np.array([0.5, 1.0, 2.0], dtype=np.float32))
    out = wp.zeros(3, dtype=int)
    wp.launch(threshold_kernel, dim=3, inputs=[a, out])
    assert out.numpy().sum() == 2


@pytest.mark.parametrize("start,expected_above", CASES)
def test_double(start, expected_above):
    a = wp.full(2, start, dtype=float)
    wp.launch(double_in_place, dim=2, inputs=[a])
    assert np.allclose(a.numpy(), 2 * start)


if __name__ == "__main__":
    raise SystemExit(pytest.main([__file__, "-q"]))
