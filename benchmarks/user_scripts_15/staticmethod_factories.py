import warp as wp


class Ops:
    """A namespace of kernel builders."""

    @staticmethod
    def make_scale(s: float):
        @wp.kernel
        def scale_sm(x: wp.array(dtype=float)):
            i = wp.tid()
            x[i] = x[i] * s

        return scale_sm

    @staticmethod
    def make_shift(d: float):
        @wp.kernel
        def shift_sm(x: wp.array(dtype=float)):
            i = wp.tid()
            x[i] = x[i] + d

        return shift_sm


DOUBLE = Ops.make_scale(2.0)

if __name__ == "__main__":
    ops = Ops()
    shift = ops.make_shift(0.25)
    x = wp.ones(3, dtype=float)
    wp.launch(DOUBLE, dim=3, inputs=[x])
    wp.launch(shift, dim=3, inputs=[x])
    print(x.numpy())
