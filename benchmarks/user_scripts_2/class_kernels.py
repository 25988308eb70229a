import warp as wp


class Solver:
    """Jacobi solver with its kernels as members."""

    @wp.kernel
    def jacobi_step(
        x: wp.array(dtype=float), x_new: wp.array(dtype=float), b: wp.array(dtype=float), diag: float, off: float
    ):
        i = wp.tid()
        n = x.shape[0]
        left = float(0.0)
        right = float(0.0)
        if i > 0:
            left = x[i - 1]
        if i < n - 1:
            right = x[i + 1]
        x_new[i] = (b[i] - off * (left + right)) / diag

    @staticmethod
    @wp.kernel
    def residual(x: wp.array(dtype=float), b: wp.array(dtype=float), r: wp.array(dtype=float), diag: float):
        i = wp.tid()
        r[i] = b[i] - diag * x[i]

    def __init__(self, n, iterations=50):
        self.n = n
        self.iterations = iterations
        self.x = wp.zeros(n, dtype=float)
        self.tmp = wp.zeros(n, dtype=float)
        self.b = wp.ones(n, dtype=float)

    def solve(self):
        for _ in range(self.iterations):
            wp.launch(self.jacobi_step, dim=self.n, inputs=[self.x, self.tmp, self.b, 4.0, -1.0])
            self.x, self.tmp = self.tmp, self.x
        return self.x


class Smoother:
    WIDTH = 3

    def __init__(self, width=WIDTH):
        self.width = width
        w = self.width
        inv = 1.0 / float(2 * w + 1)

        @wp.kernel
        def smooth(a: wp.array(dtype=float), b: wp.array(dtype=float)):
            i = wp.tid()
            acc = float(0.0)
            for k in range(-w, w + 1):
                acc += a[wp.clamp(i + k, 0, a.shape[0] - 1)]
            b[i] = acc * inv

        self.kernel = smooth


if __name__ == "__main__":
    s = Solver(128)
    print(s.solve())
    sm = Smoother()
    out = wp.zeros(128, dtype=float)
    wp.launch(sm.kernel, dim=128, inputs=[s.x, out])
