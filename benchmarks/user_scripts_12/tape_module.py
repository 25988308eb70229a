import warp as wp

wp.set_device("cpu")


class LinearModel:
    def __init__(self, n: int, l2: float = 0.01):
        self.w = wp.ones(n, dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)
        reg = l2

        @wp.kernel
        def ridge_loss(w: wp.array(dtype=float), x: wp.array(dtype=float), y: wp.array(dtype=float), loss: wp.array(dtype=float)):
            i = wp.tid()
            r = w[i] * x[i] - y[i]
            wp.atomic_add(loss, 0, r * r + reg * w[i] * w[i])

        self.loss_kernel = ridge_loss

    def fit_step(self, x, y, lr=0.1):
        tape = wp.Tape()
        with tape:
            wp.launch(self.loss_kernel, dim=len(x), inputs=[self.w, x, y, self.loss])
        tape.backward(loss=self.loss)
        wp.launch(sgd_update, dim=len(x), inputs=[self.w, self.w.grad, lr])
        tape.zero()
        self.loss.zero_()


@wp.kernel
def sgd_update(w: wp.array(dtype=float), g: wp.array(dtype=float), lr: float):
    i = wp.tid()
    w[i] = w[i] - lr * g[i]


if __name__ == "__main__":
    m = LinearModel(4, l2=0.05)
    x = wp.full(4, 2.0, dtype=float)
    y = wp.full(4, 1.0, dtype=float)
    for _ in range(3):
        m.fit_step(x, y)
    print(m.w.numpy())
