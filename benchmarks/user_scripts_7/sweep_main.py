import argparse

import numpy as np
import warp as wp


@wp.kernel
def residual_norm(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    wp.atomic_add(out, 0, a[wp.tid()] * a[wp.tid()])


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--alphas", type=float, nargs="+", default=[0.1, 0.4])
    args = p.parse_args(argv)
    results = {}
    for alpha in args.alphas:
        @wp.kernel
        def relax(u: wp.array(dtype=float)):
            i = wp.tid()
            if i > 0 and i < u.shape[0] - 1:
                u[i] = (1.0 - alpha) * u[i] + alpha * 0.5 * (u[i - 1] + u[i + 1])

        u = wp.array(np.random.default_rng(0).random(32).astype(np.float32))
        for _ in range(5):
            wp.launch(relax, dim=32, inputs=[u])
        r = wp.zeros(1, dtype=float)
        wp.launch(residual_norm, dim=32, inputs=[u, r])
        results[alpha] = float(r.numpy()[0])
    print(results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
