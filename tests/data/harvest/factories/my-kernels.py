import warp as wp


def test_captured_constant(test, device):
    # A test function: the kernel captures a local the test sets; the test itself is never called.
    limit = 4.0

    @wp.kernel
    def clamp_to_limit(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = wp.min(a[i], limit)

    wp.launch(clamp_to_limit, dim=1, inputs=[wp.zeros(1, dtype=float, device=device)], device=device)
    test.assertTrue(True)


def make_power(exponent: int):
    @wp.kernel
    def power(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = wp.pow(a[i], float(exponent))

    return power


square = make_power(2)  # made by the script's load: a record as before, not made again
cube = make_power(3)


def make_zero(dtype):
    @wp.kernel
    def zero(a: wp.array(dtype=dtype)):
        a[wp.tid()] = dtype(0)

    return zero


# Loading the script makes this one: its annotation reads the factory's argument.
zero_f64 = make_zero(wp.float64)


def test_each_dtype(test, device):
    # One kernel per loop iteration: made for each value of the loop's sequence.
    for dtype in (wp.float16, wp.float64):

        @wp.kernel
        def negate(a: wp.array(dtype=dtype)):
            a[wp.tid()] = -a[wp.tid()]

        wp.launch(negate, dim=1, inputs=[wp.zeros(1, dtype=dtype, device=device)], device=device)
