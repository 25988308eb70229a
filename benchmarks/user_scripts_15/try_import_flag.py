import warp as wp

try:
    import numba  # noqa: F401

    HAVE_NUMBA = True
except ImportError:
    HAVE_NUMBA = False


def make_blend(w: float):
    @wp.kernel
    def blend_try(a: wp.array(dtype=float), b: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] * (1.0 - w) + b[i] * w

    return blend_try


blend = make_blend(0.5 if HAVE_NUMBA else 0.25)

if not HAVE_NUMBA:

    @wp.kernel
    def fallback_square(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] * a[i]


if __name__ == "__main__":
    a = wp.ones(4, dtype=float)
    b = wp.zeros(4, dtype=float)
    wp.launch(blend, dim=4, inputs=[a, b])
    if not HAVE_NUMBA:
        wp.launch(fallback_square, dim=4, inputs=[a])
    print(a.numpy())
