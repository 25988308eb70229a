import json
import os

import warp as wp

HERE = os.path.dirname(os.path.abspath(__file__))


def make_spring(k: float):
    @wp.kernel
    def spring_jsonf(x: wp.array(dtype=float), f: wp.array(dtype=float)):
        i = wp.tid()
        f[i] = -k * x[i]

    return spring_jsonf


def make_drag(linear: float, quadratic: float):
    @wp.kernel
    def drag_jsonf(v: wp.array(dtype=float), f: wp.array(dtype=float)):
        i = wp.tid()
        s = v[i]
        f[i] = f[i] - linear * s - quadratic * s * wp.abs(s)

    return drag_jsonf


def main():
    with open(os.path.join(HERE, "material.json")) as fh:
        params = json.load(fh)
    x = wp.ones(4, dtype=float)
    f = wp.zeros(4, dtype=float)
    wp.launch(make_spring(params["k"]), dim=4, inputs=[x, f])
    wp.launch(make_drag(**params["drag"]), dim=4, inputs=[x, f])
    print(f.numpy())


if __name__ == "__main__":
    main()
