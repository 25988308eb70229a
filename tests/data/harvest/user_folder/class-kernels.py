import warp as wp


class Solver:
    @staticmethod
    @wp.kernel
    def residual(x: wp.array(dtype=float), r: wp.array(dtype=float)):
        i = wp.tid()
        r[i] = 1.0 - x[i]

    WIDTH = 2

    def __init__(self, n=64, width=WIDTH):
        self.n = n
        self.width = width
        self.buffer = wp.zeros(n, dtype=float)  # not run by the harvest: the kernel does not need it
        half = self.n // 2
        w = self.width

        @wp.kernel
        def window(a: wp.array(dtype=float)):
            i = wp.tid()
            a[i] = float(wp.min(i, half) + w)

        self.scaled = self._make_scaled()
        self.configure()
        k = self.n * 2

        # After a method call that may change any attribute: not made, with its reason.
        @wp.kernel
        def after_configure(a: wp.array(dtype=float)):
            a[wp.tid()] = float(k)

    def configure(self):
        self.n = 3

    def _make_scaled(self):
        # Called by `__init__`, which sets what it reads.
        s = float(self.n)

        @wp.kernel
        def scaled(a: wp.array(dtype=float)):
            a[wp.tid()] = a[wp.tid()] * s

        return scaled


if __name__ == "__main__":
    solver = Solver(n=16)
