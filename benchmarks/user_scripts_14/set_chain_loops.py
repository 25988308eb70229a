import itertools

import warp as wp

ORDERS = {3, 2, 3}
SMALL = (1.0, 2.0)
LARGE = [10.0]


def make_pow(p):
    @wp.kernel
    def pow_sorted(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = wp.pow(a[i], float(p))

    return pow_sorted


def make_shift(s):
    @wp.kernel
    def shift_chain(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] - s

    return shift_chain


POWERS = []
for p in sorted(ORDERS):
    POWERS.append(make_pow(p))


def main():
    a = wp.full(3, 1.5, dtype=float)
    for k in POWERS:
        wp.launch(k, dim=3, inputs=[a])
    for s in itertools.chain(SMALL, LARGE):
        wp.launch(make_shift(s), dim=3, inputs=[a])
    print(a.numpy())


if __name__ == "__main__":
    main()
