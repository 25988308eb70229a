import warp as wp


@wp.func
def square(x: float):
    return x * x


@wp.func
def negate(x: float):
    return -x


@wp.func
def half(x: float):
    return 0.5 * x


PIPE = (square, half)


def make_chain(*funcs):
    @wp.kernel
    def chain_apply(a: wp.array(dtype=float)):
        i = wp.tid()
        x = a[i]
        for k in range(wp.static(len(funcs))):
            x = wp.static(funcs[k])(x)
        a[i] = x

    return chain_apply


def make_unary(name):
    op = getattr(wp, name)

    @wp.kernel
    def unary_wp(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = wp.static(op)(a[i])

    return unary_wp


def main():
    a = wp.full(4, 3.0, dtype=float)
    wp.launch(make_chain(square, negate, half), dim=4, inputs=[a])
    wp.launch(make_chain(*PIPE), dim=4, inputs=[a])
    for name in ("sin", "exp"):
        wp.launch(make_unary(name), dim=4, inputs=[a])
    print(a.numpy())


if __name__ == "__main__":
    main()
