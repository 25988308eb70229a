import warp as wp

_BUILT = 0


def make_tagged(tag):
    global _BUILT
    _BUILT += 1

    @wp.kernel
    def tagged_fill(a: wp.array(dtype=int)):
        i = wp.tid()
        a[i] = tag * 100 + i

    return tagged_fill


def make_counter(step):
    calls = 0

    def bump():
        nonlocal calls
        calls += 1
        return calls

    bump()

    @wp.kernel
    def counted_add(a: wp.array(dtype=int)):
        i = wp.tid()
        a[i] = a[i] + step

    return counted_add


if __name__ == "__main__":
    a = wp.zeros(4, dtype=int)
    wp.launch(make_tagged(7), dim=4, inputs=[a])
    wp.launch(make_counter(3), dim=4, inputs=[a])
    print(a.numpy(), _BUILT)
