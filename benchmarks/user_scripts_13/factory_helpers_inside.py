import warp as wp


def make_gauss(radius, sigma=1.0):
    import math

    def g(x):
        return math.exp(-0.5 * (x / sigma) ** 2)

    raw = [g(k - radius) for k in range(2 * radius + 1)]
    total = sum(raw)
    weights = [w / total for w in raw]

    @wp.kernel
    def gauss_blur(a: wp.array(dtype=float), out: wp.array(dtype=float)):
        i = wp.tid()
        n = a.shape[0]
        s = float(0.0)
        for k in range(wp.static(len(weights))):
            j = wp.clamp(i + k - radius, 0, n - 1)
            s += wp.static(weights[k]) * a[j]
        out[i] = s

    return gauss_blur


def make_padded(n):
    # round the length up to a power of two
    width = 1
    while width < n:
        width *= 2

    @wp.kernel
    def pad_copy(a: wp.array(dtype=float), out: wp.array(dtype=float)):
        i = wp.tid()
        if i < width:
            if i < n:
                out[i] = a[i]
            else:
                out[i] = 0.0

    return pad_copy


if __name__ == "__main__":
    a = wp.full(5, 1.0, dtype=float)
    out = wp.zeros(8, dtype=float)
    wp.launch(make_gauss(2, sigma=0.8), dim=5, inputs=[a, out])
    print(out.numpy())
    wp.launch(make_padded(5), dim=8, inputs=[a, out])
    print(out.numpy())
