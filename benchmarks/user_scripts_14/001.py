"""Settings copied from module defaults and edited in main() before the factories see them."""

import warp as wp

DEFAULTS = {"gain": 1.0, "bias": 0.0}
SMOOTH_DEFAULTS = {"weight": 0.5}


def make_affine(gain, bias):
    @wp.kernel
    def affine_upd(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = gain * a[i] + bias

    return affine_upd


def make_smooth(weight, iters):
    @wp.kernel
    def smooth_copy(src: wp.array(dtype=float), dst: wp.array(dtype=float)):
        i = wp.tid()
        n = src.shape[0]
        v = src[i]
        for _ in range(iters):
            v = (1.0 - weight) * v + weight * 0.5 * (src[wp.max(i - 1, 0)] + src[wp.min(i + 1, n - 1)])
        dst[i] = v

    return smooth_copy


def main():
    cfg = dict(DEFAULTS)
    cfg["gain"] = 3.0
    cfg.update(bias=0.5)
    affine = make_affine(**cfg)

    opts = SMOOTH_DEFAULTS.copy()
    opts.setdefault("iters", 2)
    smooth = make_smooth(**opts)

    a = wp.full(8, 1.0, dtype=float)
    b = wp.zeros(8, dtype=float)
    wp.launch(affine, dim=8, inputs=[a])
    wp.launch(smooth, dim=8, inputs=[a, b])
    print(a.numpy()[0], b.numpy()[0])


if __name__ == "__main__":
    main()
