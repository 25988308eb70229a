import warp as wp

KEYS = ("stiffness", "damping")
VALUES = (40.0, 0.5)
NAMES = ["soft", "hard"]
GAINS = [0.5, 4.0]


def make_spring(stiffness, damping):
    @wp.kernel
    def spring_zip(x: wp.array(dtype=float), v: wp.array(dtype=float), f: wp.array(dtype=float)):
        i = wp.tid()
        f[i] = -stiffness * x[i] - damping * v[i]

    return spring_zip


def make_gain(g):
    @wp.kernel
    def gain_zip(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = g * a[i]

    return gain_zip


def main():
    spring = make_spring(**dict(zip(KEYS, VALUES)))
    table = {}
    for name, g in zip(NAMES, GAINS):
        table[name] = make_gain(g)
    x = wp.full(4, 0.1, dtype=float)
    v = wp.zeros(4, dtype=float)
    f = wp.zeros(4, dtype=float)
    wp.launch(spring, dim=4, inputs=[x, v, f])
    for name in NAMES:
        wp.launch(table[name], dim=4, inputs=[f])
    print(f.numpy())


if __name__ == "__main__":
    main()
