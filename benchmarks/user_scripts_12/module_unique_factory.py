import warp as wp


def make_unique_scale(s: float):
    @wp.kernel(module="unique", enable_backward=False)
    def unique_scale(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] * s

    return unique_scale


def _plain_offset(a: wp.array(dtype=float), b: float):
    i = wp.tid()
    a[i] = a[i] + b


OFFSETS = [wp.kernel(_plain_offset, module="unique") for _ in range(2)]

if __name__ == "__main__":
    a = wp.ones(4, dtype=float)
    for s in (2.0, 3.0):
        wp.launch(make_unique_scale(s), dim=4, inputs=[a])
    wp.launch(OFFSETS[0], dim=4, inputs=[a, 1.0])
    print(a.numpy())
