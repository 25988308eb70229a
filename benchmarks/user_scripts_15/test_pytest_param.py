import numpy as np
import pytest
import warp as wp


def make_gain(g: float):
    @wp.kernel
    def gain_pp(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = x[i] * g

    return gain_pp


def make_repeat(n: int):
    @wp.kernel
    def repeat_ids(x: wp.array(dtype=float), y: wp.array(dtype=float)):
        i = wp.tid()
        s = float(0.0)
        for _ in range(n):
            s += x[i]
        y[i] = s

    return repeat_ids


@pytest.mark.parametrize(
    "gain",
    [pytest.param(0.5, id="half"), pytest.param(2.0, id="double"), pytest.param(8.0, marks=pytest.mark.slow)],
)
def test_gain(gain):
    x = wp.ones(4, dtype=float)
    wp.launch(make_gain(gain), dim=4, inputs=[x])
    assert np.allclose(x.numpy(), gain)


@pytest.mark.parametrize("n", [1, 2], ids=["one", "two"])
def test_repeat(n):
    x = wp.ones(4, dtype=float)
    y = wp.zeros(4, dtype=float)
    wp.launch(make_repeat(n), dim=4, inputs=[x, y])
    assert np.allclose(y.numpy(), n)


if __name__ == "__main__":
    raise SystemExit(pytest.main([__file__, "-q", "-p", "no:cacheprovider", "-W", "ignore::pytest.PytestUnknownMarkWarning"]))
