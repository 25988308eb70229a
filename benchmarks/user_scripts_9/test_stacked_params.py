"""pytest: two stacked parametrize decorators (a cartesian product) and a parametrize given as ids/argvalues keywords."""

import numpy as np
import pytest
import warp as wp


@pytest.mark.parametrize("offset", [0.0, 1.0])
@pytest.mark.parametrize("gain", [2.0, -1.0])
def test_affine(gain, offset):
    @wp.kernel
    def affine_p(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = gain * x[i] + offset

    x = wp.array(np.ones(3, dtype=np.float32))
    wp.launch(affine_p, dim=3, inputs=[x])
    assert np.allclose(x.numpy(), gain + offset)


@pytest.mark.parametrize(argnames="power", argvalues=[2, 3], ids=["sq", "cube"])
def test_power(power):
    @wp.kernel
    def power_p(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = wp.pow(x[i], float(power))

    x = wp.array(np.full(3, 2.0, dtype=np.float32))
    wp.launch(power_p, dim=3, inputs=[x])
    assert np.allclose(x.numpy(), 2.0**power)


if __name__ == "__main__":
    raise SystemExit(pytest.main([__file__, "-q"]))
