import argparse

import warp as wp

DTYPES = {"f32": wp.float32, "f64": wp.float64}


def make_gravity(g):
    @wp.kernel
    def gravity_nargs(v: wp.array(dtype=wp.vec3), dt: float):
        i = wp.tid()
        v[i] = v[i] + g * dt

    return gravity_nargs


def make_fill(dtype, value):
    @wp.kernel
    def fill_typed(a: wp.array(dtype=dtype)):
        i = wp.tid()
        a[i] = dtype(value)

    return fill_typed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gravity", nargs=3, type=float, default=[0.0, -9.8, 0.0])
    parser.add_argument("--precision", choices=sorted(DTYPES), default="f64")
    parser.add_argument("--value", type=float, default=0.5)
    args = parser.parse_args()

    v = wp.zeros(4, dtype=wp.vec3)
    wp.launch(make_gravity(wp.vec3(*args.gravity)), dim=4, inputs=[v, 0.1])
    dtype = DTYPES[args.precision]
    a = wp.zeros(4, dtype=dtype)
    wp.launch(make_fill(dtype, args.value), dim=4, inputs=[a])
    print(v.numpy()[0], a.numpy())


if __name__ == "__main__":
    main()
