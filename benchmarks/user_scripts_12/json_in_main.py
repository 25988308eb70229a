import json
from pathlib import Path

import warp as wp


def make_jacobi(omega: float, iterations: int):
    @wp.kernel
    def jacobi_json(x: wp.array(dtype=float), b: wp.array(dtype=float)):
        i = wp.tid()
        n = x.shape[0]
        for _ in range(iterations):
            avg = 0.5 * (x[wp.max(i - 1, 0)] + x[wp.min(i + 1, n - 1)])
            x[i] = (1.0 - omega) * x[i] + omega * (avg + b[i])

    return jacobi_json


@wp.kernel
def add_source(b: wp.array(dtype=float), s: float):
    b[wp.tid()] = s


def main():
    params = json.loads((Path(__file__).parent / "params.json").read_text())
    x = wp.zeros(8, dtype=float)
    b = wp.zeros(8, dtype=float)
    wp.launch(add_source, dim=8, inputs=[b, params["source"]])
    wp.launch(make_jacobi(params["omega"], params["iterations"]), dim=8, inputs=[x, b])
    print(x.numpy())


if __name__ == "__main__":
    main()
