import warp as wp


def _relax(x: wp.array(dtype=float), y: wp.array(dtype=float), w: float):
    i = wp.tid()
    n = x.shape[0]
    left = x[wp.max(i - 1, 0)]
    right = x[wp.min(i + 1, n - 1)]
    y[i] = (1.0 - w) * x[i] + w * 0.5 * (left + right)


class Relaxer:
    # kernel built from a plain function, stored as a class attribute
    relax = wp.kernel(_relax)

    @wp.kernel
    def zero(x: wp.array(dtype=float)):
        x[wp.tid()] = 0.0

    def __init__(self, n: int, omega: float = 0.8):
        self.n = n
        self.omega = omega
        self.x = wp.array([float(i % 3) for i in range(n)], dtype=float, device="cpu")
        self.y = wp.zeros(n, dtype=float, device="cpu")

    def step(self) -> None:
        wp.launch(self.relax, dim=self.n, inputs=[self.x, self.y, self.omega], device="cpu")
        self.x, self.y = self.y, self.x


r = Relaxer(32)
for _ in range(5):
    r.step()
print(r.x.numpy()[:5])
wp.launch(Relaxer.zero, dim=r.n, inputs=[r.x], device="cpu")
