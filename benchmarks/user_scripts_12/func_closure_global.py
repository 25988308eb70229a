import warp as wp


def make_activation(alpha: float):
    @wp.func
    def leaky(x: float):
        return wp.where(x > 0.0, x, alpha * x)

    return leaky


def make_softclip(limit: float):
    @wp.func
    def softclip(x: float):
        return limit * wp.tanh(x / limit)

    return softclip


leaky_01 = make_activation(0.1)


@wp.kernel
def apply_leaky(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = leaky_01(a[i])


def make_apply(fn):
    @wp.kernel
    def apply_fn(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = wp.static(fn)(a[i])

    return apply_fn


if __name__ == "__main__":
    a = wp.array([-2.0, -1.0, 0.5, 3.0], dtype=float)
    wp.launch(apply_leaky, dim=4, inputs=[a])
    wp.launch(make_apply(make_softclip(2.0)), dim=4, inputs=[a])
    print(a.numpy())
