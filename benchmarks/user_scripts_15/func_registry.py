import warp as wp

FUNCS = {}


def op(fn):
    """Register fn as a Warp function under its own name; keep the Python one for tests."""
    FUNCS[fn.__name__] = wp.func(fn)
    return fn


@op
def softplus(x: float) -> float:
    return wp.log(1.0 + wp.exp(x))


@op
def mish(x: float) -> float:
    return x * wp.tanh(wp.log(1.0 + wp.exp(x)))


@wp.kernel
def softplus_reg(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = wp.static(FUNCS["softplus"])(x[i])


@wp.kernel
def apply_two_reg(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = wp.static(FUNCS["mish"])(wp.static(FUNCS["softplus"])(x[i]))


if __name__ == "__main__":
    x = wp.array([-1.0, 0.0, 1.0], dtype=float)
    y = wp.zeros(3, dtype=float)
    wp.launch(apply_two_reg, dim=3, inputs=[x, y])
    wp.launch(softplus_reg, dim=3, inputs=[x])
    print(x.numpy(), y.numpy(), softplus(0.0))
