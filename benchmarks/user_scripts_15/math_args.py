import math
import statistics

import warp as wp

N = 20
SAMPLES = [0.5, 1.5, 2.5, 3.5]


def make_tiles(ntiles: int, rem: int):
    @wp.kernel
    def tiles_ceil(counts: wp.array(dtype=int)):
        i = wp.tid()
        if i < ntiles:
            counts[i] = 3
        if i == ntiles - 1 and rem > 0:
            counts[i] = rem

    return tiles_ceil


def make_bin(center: float, width: float):
    @wp.kernel
    def bin_mean(x: wp.array(dtype=float), inside: wp.array(dtype=int)):
        i = wp.tid()
        if wp.abs(x[i] - center) < width:
            inside[i] = 1

    return bin_mean


def main():
    q, r = divmod(N, 3)
    ntiles = math.ceil(N / 3)
    k1 = make_tiles(ntiles, r if q else 0)
    k2 = make_bin(statistics.mean(SAMPLES), math.sqrt(math.comb(4, 2)) / 2.0)
    counts = wp.zeros(ntiles, dtype=int)
    wp.launch(k1, dim=ntiles, inputs=[counts])
    x = wp.array(SAMPLES, dtype=float)
    inside = wp.zeros(4, dtype=int)
    wp.launch(k2, dim=4, inputs=[x, inside])
    print(counts.numpy(), inside.numpy())


if __name__ == "__main__":
    main()
