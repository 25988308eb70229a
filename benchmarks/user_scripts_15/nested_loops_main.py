import itertools

import warp as wp

CONFIG = {
    "left": {"gain": 0.5},
    "right": {"gain": 1.5, "extra": 2.5},
}
EDGES = [0.0, 0.25, 0.5, 1.0]


def make_gain(g: float):
    @wp.kernel
    def gain_nested(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = x[i] * g

    return gain_nested


def make_band(lo: float, hi: float):
    @wp.kernel
    def band_pairwise(x: wp.array(dtype=float), count: wp.array(dtype=int)):
        i = wp.tid()
        if x[i] >= lo and x[i] < hi:
            wp.atomic_add(count, 0, 1)

    return band_pairwise


def main():
    x = wp.array([0.1, 0.3, 0.6, 0.9], dtype=float)
    for side, params in CONFIG.items():
        for name, value in params.items():
            wp.launch(make_gain(value), dim=4, inputs=[x])
    counts = []
    for lo, hi in itertools.pairwise(EDGES):
        c = wp.zeros(1, dtype=int)
        wp.launch(make_band(lo, hi), dim=4, inputs=[x, c])
        counts.append(int(c.numpy()[0]))
    print(counts)


if __name__ == "__main__":
    main()
