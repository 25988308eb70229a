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
