import warp as wp


def with_gain_kernel(gain: float):
    def deco(cls):
        @wp.kernel
        def class_gain(a: wp.array(dtype=float)):
            i = wp.tid()
            a[i] = a[i] * gain

        cls.kernel = class_gain
        return cls

    return deco


def with_reset(cls):
    size = cls.SIZE

    @wp.kernel
    def reset_sized(a: wp.array(dtype=float)):
        i = wp.tid()
        if i < size:
            a[i] = 0.0

    cls.reset = reset_sized
    return cls


@with_gain_kernel(gain=3.0)
class Amplifier:
    pass


@with_reset
class Buffer:
    SIZE = 4


if __name__ == "__main__":
    a = wp.ones(8, dtype=float)
    wp.launch(Amplifier.kernel, dim=8, inputs=[a])
    wp.launch(Buffer.reset, dim=8, inputs=[a])
    print(a.numpy())
