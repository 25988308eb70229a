import pytest
import warp as wp


@wp.kernel
def conftest_fill(a: wp.array(dtype=float), v: float):
    a[wp.tid()] = v


@pytest.fixture(params=[0.5, 2.0])
def scale_kernel(request):
    factor = request.param

    @wp.kernel
    def scale(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] * factor

    return scale, factor
