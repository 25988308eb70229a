import argparse
import sys

import numpy as np
import warp as wp


@wp.kernel
def histogram(values: wp.array(dtype=float), lo: float, hi: float, bins: wp.array(dtype=int)):
    i = wp.tid()
    nb = bins.shape[0]
    b = int((values[i] - lo) / (hi - lo) * float(nb))
    b = wp.clamp(b, 0, nb - 1)
    wp.atomic_add(bins, b, 1)


@wp.kernel
def cumulative(bins: wp.array(dtype=int), cdf: wp.array(dtype=int)):
    i = wp.tid()
    s = int(0)
    for j in range(i + 1):
        s += bins[j]
    cdf[i] = s


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--bins", type=int, default=8)
    p.add_argument("--samples", type=int, default=1000)
    a = p.parse_args(argv)
    vals = wp.array(np.random.default_rng(0).random(a.samples).astype(np.float32))
    bins = wp.zeros(a.bins, dtype=int)
    wp.launch(histogram, dim=a.samples, inputs=[vals, 0.0, 1.0, bins])
    cdf = wp.zeros(a.bins, dtype=int)
    wp.launch(cumulative, dim=a.bins, inputs=[bins, cdf])
    print(cdf.numpy())
    return 0 if cdf.numpy()[-1] == a.samples else 1


if __name__ == "__main__":
    raise SystemExit(main())
