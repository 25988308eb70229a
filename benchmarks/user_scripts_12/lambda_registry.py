import warp as wp


def make_act(slope: float):
    @wp.kernel
    def act_slope(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = wp.where(a[i] > 0.0, a[i], slope * a[i])

    return act_slope


def make_shift(by: float):
    @wp.kernel
    def shift_by(a: wp.array(dtype=float)):
        a[wp.tid()] += by

    return shift_by


FACTORIES = {
    "relu": lambda: make_act(0.0),
    "leaky": lambda: make_act(0.05),
    "shift": lambda: make_shift(1.0),
}


def main():
    a = wp.array([-1.0, 2.0], dtype=float)
    for name, factory in FACTORIES.items():
        wp.launch(factory(), dim=2, inputs=[a])
        print(name, a.numpy())


if __name__ == "__main__":
    main()
