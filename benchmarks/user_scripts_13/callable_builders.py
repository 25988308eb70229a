import functools

import warp as wp


class Maker:
    """Callable factory: configured once, called per offset."""

    def __init__(self, gain):
        self.gain = gain

    def __call__(self, offset):
        gain = self.gain

        @wp.kernel
        def made_by_call(a: wp.array(dtype=float)):
            i = wp.tid()
            a[i] = gain * a[i] + offset

        return made_by_call


class Builder:
    @functools.singledispatchmethod
    def build(self, arg):
        raise NotImplementedError(type(arg))

    @build.register
    def _(self, arg: int):
        @wp.kernel
        def repeat_int(a: wp.array(dtype=float)):
            i = wp.tid()
            for _ in range(arg):
                a[i] += 1.0

        return repeat_int

    @build.register
    def _(self, arg: float):
        @wp.kernel
        def scale_float(a: wp.array(dtype=float)):
            i = wp.tid()
            a[i] *= arg

        return scale_float


def main():
    a = wp.ones(4, dtype=float)
    maker = Maker(2.0)
    wp.launch(maker(1.0), dim=4, inputs=[a])
    b = Builder()
    wp.launch(b.build(2), dim=4, inputs=[a])
    wp.launch(b.build(0.5), dim=4, inputs=[a])
    print(a.numpy())


if __name__ == "__main__":
    main()
