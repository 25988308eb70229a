import sys

import warp as wp


@wp.kernel
def fill_ones(a: wp.array(dtype=float)):
    a[wp.tid()] = 1.0


if __name__ == "__main__":
    n_taps = int(sys.argv[1]) if len(sys.argv) > 1 else 3

    def make_moving_average(taps: int):
        @wp.kernel
        def moving_average(a: wp.array(dtype=float), out: wp.array(dtype=float)):
            i = wp.tid()
            s = float(0.0)
            for k in range(taps):
                s += a[wp.max(i - k, 0)]
            out[i] = s / float(taps)

        return moving_average

    a = wp.zeros(8, dtype=float)
    out = wp.zeros(8, dtype=float)
    wp.launch(fill_ones, dim=8, inputs=[a])
    wp.launch(make_moving_average(n_taps), dim=8, inputs=[a, out])
    print(out.numpy())
