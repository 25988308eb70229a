import warp as wp


class Filter:
    COEFF = 1.0

    def __init__(self):
        gain = self.gain
        coeff = type(self).COEFF

        @wp.kernel
        def apply_filter(a: wp.array(dtype=float)):
            i = wp.tid()
            a[i] = gain * a[i] + coeff

        self.kernel = apply_filter

    def __call__(self, a):
        wp.launch(self.kernel, dim=a.shape[0], inputs=[a])
        return a


class Doubler(Filter):
    COEFF = 0.0

    def __init__(self):
        self.gain = 2.0
        super().__init__()


class Halver(Filter):
    COEFF = 0.5

    def __init__(self, gain=0.5):
        self.gain = gain
        super().__init__()
        half = self.gain

        @wp.kernel
        def halve_extra(a: wp.array(dtype=float)):
            i = wp.tid()
            a[i] = a[i] * half

        self.extra = halve_extra


if __name__ == "__main__":
    a = wp.ones(4, dtype=float)
    Doubler()(a)
    h = Halver()
    h(a)
    wp.launch(h.extra, dim=4, inputs=[a])
    print(a.numpy())
