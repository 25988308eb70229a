import warp as wp


def make_pow(p):
    @wp.kernel
    def pow_while(a: wp.array(dtype=float), out: wp.array(dtype=float)):
        i = wp.tid()
        v = float(1.0)
        for _ in range(p):
            v *= a[i]
        out[i] = v

    return pow_while


def make_shift(k):
    @wp.kernel
    def shift_even(a: wp.array(dtype=int)):
        i = wp.tid()
        a[i] = a[i] + k

    return shift_even


def main():
    a = wp.full(3, 1.1, dtype=float)
    out = wp.zeros(3, dtype=float)
    p = 1
    while p <= 4:
        wp.launch(make_pow(p), dim=3, inputs=[a, out])
        p *= 2
    b = wp.zeros(3, dtype=int)
    for k in range(5):
        if k % 2:
            continue
        wp.launch(make_shift(k), dim=3, inputs=[b])
    print(out.numpy(), b.numpy())


if __name__ == "__main__":
    main()
