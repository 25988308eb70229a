from concurrent.futures import ThreadPoolExecutor

import numpy as np
import warp as wp

CASES = [{"name": "soft", "k": 10.0}, {"name": "medium", "k": 50.0}, {"name": "stiff", "k": 200.0}]


def make_case(k):
    @wp.kernel
    def case(x: wp.array(dtype=float), f: wp.array(dtype=float)):
        i = wp.tid()
        f[i] = -k * x[i] * x[i] * x[i]

    return case


def run_case(cfg):
    kern = make_case(cfg["k"])
    x = wp.array(np.linspace(-1, 1, 8, dtype=np.float32))
    f = wp.zeros(8, dtype=float)
    wp.launch(kern, dim=8, inputs=[x, f])
    return cfg["name"], float(np.abs(f.numpy()).max())


@wp.kernel
def pool_reduce(vals: wp.array(dtype=float), out: wp.array(dtype=float)):
    wp.atomic_max(out, 0, vals[wp.tid()])


if __name__ == "__main__":
    wp.init()
    with ThreadPoolExecutor(max_workers=2) as ex:
        results = dict(ex.map(run_case, CASES))
    vals = wp.array(np.array(list(results.values()), dtype=np.float32))
    out = wp.zeros(1, dtype=float)
    wp.launch(pool_reduce, dim=len(results), inputs=[vals, out])
    print(results, out.numpy())
