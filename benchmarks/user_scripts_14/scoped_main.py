import warp as wp

GAINS = (1.0, 2.0, 3.0)


def make_blur(radius):
    @wp.kernel
    def blur_scoped(src: wp.array(dtype=float), dst: wp.array(dtype=float)):
        i = wp.tid()
        n = src.shape[0]
        acc = float(0.0)
        for k in range(-radius, radius + 1):
            acc += src[wp.clamp(i + k, 0, n - 1)]
        dst[i] = acc / float(2 * radius + 1)

    return blur_scoped


def make_gain(g, level):
    @wp.kernel
    def gain_rev(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] * g + float(level)

    return gain_rev


def main():
    with wp.ScopedDevice("cpu"):
        try:
            blur = make_blur(2)
        except RuntimeError:
            blur = make_blur(1)
        src = wp.full(8, 1.0, dtype=float)
        dst = wp.zeros(8, dtype=float)
        wp.launch(blur, dim=8, inputs=[src, dst])
        for level, g in enumerate(reversed(GAINS)):
            wp.launch(make_gain(g, level), dim=8, inputs=[dst])
        print(dst.numpy())


if __name__ == "__main__":
    main()
