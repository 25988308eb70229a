import functools

import warp as wp


class Activations:
    def _make(self, slope):
        @wp.kernel
        def act_pm(a: wp.array(dtype=float)):
            i = wp.tid()
            v = a[i]
            a[i] = wp.where(v > 0.0, v, slope * v)

        return act_pm

    relu = functools.partialmethod(_make, 0.0)
    leaky = functools.partialmethod(_make, 0.1)


class Scalers:
    def __init__(self, base):
        self.base = base

    def _scaled(self, factor):
        s = self.base * factor

        @wp.kernel
        def scale_pm(a: wp.array(dtype=float)):
            i = wp.tid()
            a[i] = a[i] * s

        return s, scale_pm

    double = functools.partialmethod(_scaled, 2.0)


def main():
    acts = Activations()
    a = wp.array([-1.0, 0.5, 2.0], dtype=float)
    wp.launch(acts.leaky(), dim=3, inputs=[a])
    wp.launch(acts.relu(), dim=3, inputs=[a])
    s, k = Scalers(1.5).double()
    wp.launch(k, dim=3, inputs=[a])
    print(s, a.numpy())


if __name__ == "__main__":
    main()
