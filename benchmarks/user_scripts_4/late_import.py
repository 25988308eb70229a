"""Warp is imported only when needed (keeps `--help` fast)."""
import sys


def histogram(values, bins=8):
    import numpy as np
    import warp as wp

    @wp.kernel
    def bin_values(v: wp.array(dtype=float), lo: float, hi: float, counts: wp.array(dtype=int)):
        i = wp.tid()
        nb = counts.shape[0]
        b = int((v[i] - lo) / (hi - lo) * float(nb))
        b = wp.clamp(b, 0, nb - 1)
        wp.atomic_add(counts, b, 1)

    v = wp.array(np.asarray(values, dtype=np.float32), device="cpu")
    counts = wp.zeros(bins, dtype=int, device="cpu")
    wp.launch(bin_values, dim=v.shape, inputs=[v, float(min(values)), float(max(values)), counts], device="cpu")
    return counts.numpy()


def cumulative(counts):
    import numpy as np
    import warp as wp

    @wp.kernel
    def scan_serial(c: wp.array(dtype=int), out: wp.array(dtype=int)):
        acc = int(0)
        for i in range(c.shape[0]):
            acc += c[i]
            out[i] = acc

    c = wp.array(np.asarray(counts, dtype=np.int32), device="cpu")
    out = wp.zeros_like(c)
    wp.launch(scan_serial, dim=1, inputs=[c, out], device="cpu")
    return out.numpy()


if __name__ == "__main__":
    if "--help" in sys.argv:
        print(__doc__)
        sys.exit(0)
    import random

    vals = [random.gauss(0, 1) for _ in range(200)]
    print(cumulative(histogram(vals)))
