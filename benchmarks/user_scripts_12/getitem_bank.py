import warp as wp


def make_pow(n: int):
    @wp.kernel
    def pow_bank(a: wp.array(dtype=float), out: wp.array(dtype=float)):
        i = wp.tid()
        r = float(1.0)
        for _ in range(wp.static(n)):
            r = r * a[i]
        out[i] = r

    return pow_bank


class KernelBank:
    def __init__(self):
        self._made = {}

    def __getitem__(self, n: int):
        if n not in self._made:
            self._made[n] = make_pow(n)
        return self._made[n]


class Rescaler:
    def __init__(self, lo: float, hi: float):
        self.lo = lo
        self.hi = hi

    def kernel(self):
        lo, hi = self.lo, self.hi

        @wp.kernel
        def rescale_range(a: wp.array(dtype=float)):
            i = wp.tid()
            a[i] = lo + (hi - lo) * a[i]

        return rescale_range


BANK = KernelBank()
cube = BANK[3]

if __name__ == "__main__":
    a = wp.full(4, 2.0, dtype=float)
    out = wp.zeros(4, dtype=float)
    wp.launch(cube, dim=4, inputs=[a, out])
    wp.launch(BANK[2], dim=4, inputs=[a, out])
    wp.launch(Rescaler(-1.0, 1.0).kernel(), dim=4, inputs=[out])
    print(out.numpy())
