import warp as wp


def make_gain(g: float):
    @wp.kernel
    def gain_cached(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = g * x[i]

    return gain_cached


def make_shift(s: float):
    @wp.kernel
    def shift_cached(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = x[i] + s

    return shift_cached


class KernelCache:
    def __init__(self):
        self._cache = {}

    def gain(self, g: float):
        if g not in self._cache:
            self._cache[g] = make_gain(g)
        return self._cache[g]


_SHIFTS: dict = {}


def get_shift(s: float):
    k = _SHIFTS.get(s)
    if k is None:
        k = make_shift(s)
        _SHIFTS[s] = k
    return k


def main():
    cache = KernelCache()
    x = wp.ones(4, dtype=float)
    for _ in range(2):
        wp.launch(cache.gain(2.0), dim=4, inputs=[x])
        wp.launch(get_shift(0.5), dim=4, inputs=[x])
    print(x.numpy())


if __name__ == "__main__":
    main()
