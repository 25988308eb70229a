"""A pipeline object building its stage kernels in __init__ from its constructor arguments."""

import warp as wp


def make_power(p):
    @wp.kernel
    def power_pipe(a: wp.array(dtype=float)):
        i = wp.tid()
        v = a[i]
        for _ in range(p - 1):
            v = v * a[i]
        a[i] = v

    return power_pipe


def make_bias(b):
    @wp.kernel
    def bias_pipe(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] + b

    return bias_pipe


class Pipeline:
    def __init__(self, orders=(2,), biases=()):
        self.orders = tuple(orders)
        self.stages = {p: make_power(p) for p in self.orders}
        self.bias_kernels = []
        for b in biases:
            self.bias_kernels.append(make_bias(b))

    def run(self, a):
        for k in self.stages.values():
            wp.launch(k, dim=a.shape[0], inputs=[a])
        for k in self.bias_kernels:
            wp.launch(k, dim=a.shape[0], inputs=[a])


def main():
    pipe = Pipeline(orders=(2, 3), biases=(0.5,))
    a = wp.full(4, 1.1, dtype=float)
    pipe.run(a)
    print(a.numpy())


if __name__ == "__main__":
    main()
