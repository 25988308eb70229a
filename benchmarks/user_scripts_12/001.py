"""Kernels cached by hand in a module-level dict, and a lazily built singleton kernel."""
import warp as wp

_CACHE: dict = {}


def get_scale(dtype):
    key = ("scale", dtype)
    if key in _CACHE:
        return _CACHE[key]

    @wp.kernel
    def scale_typed(a: wp.array(dtype=dtype), s: dtype):
        i = wp.tid()
        a[i] = a[i] * s

    _CACHE[key] = scale_typed
    return scale_typed


_RESET = None


def reset_kernel():
    global _RESET
    if _RESET is None:

        @wp.kernel
        def reset_all(a: wp.array(dtype=float), value: float):
            a[wp.tid()] = value

        _RESET = reset_all
    return _RESET


for dt in (wp.float32, wp.float64):
    get_scale(dt)


def main():
    a = wp.ones(8, dtype=wp.float64)
    wp.launch(get_scale(wp.float64), dim=8, inputs=[a, wp.float64(2.0)])
    b = wp.zeros(8, dtype=float)
    wp.launch(reset_kernel(), dim=8, inputs=[b, 3.0])
    print(a.numpy()[:2], b.numpy()[:2])


if __name__ == "__main__":
    main()
