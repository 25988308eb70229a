import warp as wp


def make_window(n, /, *, scale=1.0, center=True):
    off = n // 2 if center else 0

    @wp.kernel
    def window_sum_po(a: wp.array(dtype=float), out: wp.array(dtype=float)):
        i = wp.tid()
        s = float(0.0)
        for k in range(n):
            j = wp.clamp(i + k - off, 0, a.shape[0] - 1)
            s += a[j]
        out[i] = scale * s

    return window_sum_po


def make_affine(**opts):
    gain = opts.pop("gain", 1.0)
    bias = opts.pop("bias", 0.0)
    if opts:
        raise TypeError(f"unknown options {sorted(opts)}")

    @wp.kernel
    def affine_opts(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = gain * a[i] + bias

    return affine_opts


if __name__ == "__main__":
    a = wp.ones(8, dtype=float)
    out = wp.zeros(8, dtype=float)
    wp.launch(make_window(5, scale=0.5), dim=8, inputs=[a, out])
    wp.launch(make_window(3), dim=8, inputs=[a, out])
    wp.launch(make_affine(gain=2.0, bias=-1.0), dim=8, inputs=[out])
    print(out.numpy())
