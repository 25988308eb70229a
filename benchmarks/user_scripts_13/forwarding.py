import warp as wp

DEFAULT_SCALE = 1.5


def make_scale(s):
    @wp.kernel
    def scale_fw(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] * s

    return scale_fw


def make_core(fast=False, gain=1.0):
    @wp.kernel
    def core_fw(a: wp.array(dtype=float)):
        i = wp.tid()
        if fast:
            a[i] = gain * a[i]
        else:
            a[i] = gain * wp.sqrt(a[i] * a[i] + 1.0e-6)

    return core_fw


def make_default():
    return make_scale(DEFAULT_SCALE)


def make_fast(**kw):
    return make_core(fast=True, **kw)


half = lambda: make_scale(0.5)  # noqa: E731


def main():
    a = wp.full(4, 2.0, dtype=float)
    wp.launch(make_default(), dim=4, inputs=[a])
    wp.launch(make_fast(gain=2.0), dim=4, inputs=[a])
    wp.launch(half(), dim=4, inputs=[a])
    print(a.numpy())


if __name__ == "__main__":
    main()
