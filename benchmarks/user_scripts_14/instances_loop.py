from dataclasses import dataclass

import warp as wp


@dataclass
class Band:
    lo: float
    hi: float

    def kernel(self):
        lo, hi = self.lo, self.hi

        @wp.kernel
        def band_inst(a: wp.array(dtype=float), mask: wp.array(dtype=int)):
            i = wp.tid()
            if a[i] >= lo and a[i] < hi:
                mask[i] = 1

        return band_inst


class Blur:
    def __init__(self, radius):
        self.radius = radius
        r = radius

        @wp.kernel
        def blur_r(src: wp.array(dtype=float), dst: wp.array(dtype=float)):
            i = wp.tid()
            n = src.shape[0]
            acc = float(0.0)
            for k in range(-r, r + 1):
                acc += src[wp.clamp(i + k, 0, n - 1)]
            dst[i] = acc / float(2 * r + 1)

        self.kernel = blur_r


BANDS = [Band(0.0, 0.5), Band(0.5, 1.0)]


def main():
    a = wp.array([0.1, 0.6, 0.9, 0.3], dtype=float)
    mask = wp.zeros(4, dtype=int)
    for band in BANDS:
        wp.launch(band.kernel(), dim=4, inputs=[a, mask])
    blurs = [Blur(r) for r in (1, 2)]
    out = wp.zeros(4, dtype=float)
    for b in blurs:
        wp.launch(b.kernel, dim=4, inputs=[a, out])
    print(mask.numpy(), out.numpy())


if __name__ == "__main__":
    main()
