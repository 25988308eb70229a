import argparse
import enum

import warp as wp


class Boundary(enum.Enum):
    CLAMP = "clamp"
    PERIODIC = "periodic"


def make_shift(mode: Boundary):
    if mode is Boundary.PERIODIC:

        @wp.kernel
        def shift_periodic(a: wp.array(dtype=float), out: wp.array(dtype=float)):
            i = wp.tid()
            n = a.shape[0]
            out[i] = a[(i + 1) % n]

        return shift_periodic

    @wp.kernel
    def shift_clamped(a: wp.array(dtype=float), out: wp.array(dtype=float)):
        i = wp.tid()
        out[i] = a[wp.min(i + 1, a.shape[0] - 1)]

    return shift_clamped


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bc", choices=[b.value for b in Boundary], default="periodic")
    args = parser.parse_args()
    a = wp.array([1.0, 2.0, 3.0], dtype=float)
    out = wp.zeros(3, dtype=float)
    wp.launch(make_shift(Boundary(args.bc)), dim=3, inputs=[a, out])
    wp.launch(make_shift(Boundary["CLAMP"]), dim=3, inputs=[a, out])
    print(out.numpy())


if __name__ == "__main__":
    main()
