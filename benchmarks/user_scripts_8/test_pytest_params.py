import numpy as np
import pytest
import warp as wp


@wp.kernel
def fill_const(a: wp.array(dtype=float), value: float):
    a[wp.tid()] = value


@pytest.mark.parametrize(
    "dtype_name",
    [pytest.param("float32", id="f32"), pytest.param("float64", id="f64", marks=pytest.mark.slow)],
)
def test_cast(dtype_name):
    dtype = getattr(wp, dtype_name)

    @wp.kernel
    def cast_kernel(src: wp.array(dtype=float), dst: wp.array(dtype=dtype)):
        i = wp.tid()
        dst[i] = dtype(src[i])

    src = wp.zeros(4, dtype=float)
    wp.launch(fill_const, dim=4, inputs=[src, 1.5])
    dst = wp.zeros(4, dtype=dtype)
    wp.launch(cast_kernel, dim=4, inputs=[src, dst])
    assert np.allclose(dst.numpy(), 1.5)


if __name__ == "__main__":
    raise SystemExit(pytest.main([__file__, "-q", "-p", "no:cacheprovider", "-W", "ignore::pytest.PytestUnknownMarkWarning"]))
