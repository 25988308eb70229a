import warp as wp


def make_leaky(slope: float):
    @wp.kernel
    def leaky_lam(x: wp.array(dtype=float)):
        i = wp.tid()
        v = x[i]
        x[i] = wp.where(v > 0.0, v, slope * v)

    return leaky_lam


def make_pow(p: int):
    @wp.kernel
    def pow_lam(x: wp.array(dtype=float)):
        i = wp.tid()
        r = float(1.0)
        for _ in range(p):
            r *= x[i]
        x[i] = r

    return pow_lam


BUILDERS = {
    "relu": lambda: make_leaky(0.0),
    "leaky": lambda: make_leaky(0.1),
    "square": lambda p=2: make_pow(p),
}


def main():
    x = wp.array([-1.0, 2.0, -3.0], dtype=float)
    for name in ("relu", "leaky", "square"):
        k = BUILDERS[name]()
        wp.launch(k, dim=3, inputs=[x])
    print(x.numpy())


if __name__ == "__main__":
    main()
