import numpy as np
import pytest

import warp as wp


def make_threshold(level: float):
    @wp.kernel
    def above_level(a: wp.array(dtype=float), out: wp.array(dtype=int)):
        i = wp.tid()
        out[i] = wp.where(a[i] > level, 1, 0)

    return above_level


@wp.kernel
def iota_f(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = float(i)


@pytest.fixture
def threshold(request):
    return make_threshold(request.param)


@pytest.mark.parametrize("threshold, expected", [(2.5, 5), (6.5, 1)], indirect=["threshold"])
def test_count(threshold, expected):
    a = wp.zeros(8, dtype=float)
    wp.launch(iota_f, dim=8, inputs=[a])
    out = wp.zeros(8, dtype=int)
    wp.launch(threshold, dim=8, inputs=[a, out])
    assert int(np.sum(out.numpy())) == expected


if __name__ == "__main__":
    raise SystemExit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
