"""pytest tests for my integrators: `pytest test_physics.py` (or `python test_physics.py`)."""
from typing import Any

import numpy as np
import pytest
import warp as wp


@wp.kernel
def euler(x: wp.array(dtype=Any), v: wp.array(dtype=Any), dt: Any):
    i = wp.tid()
    x[i] = x[i] + v[i] * dt


@wp.kernel
def sum_squares(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(out, 0, x[i] * x[i])


@pytest.fixture
def device():
    return "cpu"


class TestIntegrators:
    @pytest.mark.parametrize("dtype", [wp.float32, wp.float64])
    def test_euler(self, device, dtype):
        x = wp.zeros(4, dtype=dtype, device=device)
        v = wp.ones(4, dtype=dtype, device=device)
        wp.launch(euler, dim=4, inputs=[x, v, dtype(0.5)], device=device)
        assert np.allclose(x.numpy(), 0.5)

    def test_sum_squares(self, device):
        x = wp.array(np.arange(4, dtype=np.float32), device=device)
        out = wp.zeros(1, dtype=float, device=device)
        wp.launch(sum_squares, dim=4, inputs=[x, out], device=device)
        assert out.numpy()[0] == pytest.approx(14.0)


class TestLocalKernels:
    def setup_method(self):
        @wp.kernel
        def reverse(src: wp.array(dtype=int), dst: wp.array(dtype=int)):
            i = wp.tid()
            dst[src.shape[0] - 1 - i] = src[i]

        self.reverse = reverse

    def test_reverse(self, device):
        a = wp.array([1, 2, 3], dtype=int, device=device)
        b = wp.zeros(3, dtype=int, device=device)
        wp.launch(self.reverse, dim=3, inputs=[a, b], device=device)
        assert b.numpy().tolist() == [3, 2, 1]

    @pytest.mark.parametrize("k", [2, 3])
    def test_modulo(self, device, k):
        @wp.kernel
        def modulo(a: wp.array(dtype=int)):
            i = wp.tid()
            a[i] = i % k

        a = wp.zeros(6, dtype=int, device=device)
        wp.launch(modulo, dim=6, inputs=[a], device=device)
        assert a.numpy().max() == k - 1


if __name__ == "__main__":
    raise SystemExit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
