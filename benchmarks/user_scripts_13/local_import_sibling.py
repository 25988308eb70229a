import importlib

import numpy as np
import warp as wp


@wp.kernel
def count_outside(a: wp.array(dtype=float), lo: float, hi: float, n: wp.array(dtype=int)):
    i = wp.tid()
    if a[i] < lo or a[i] > hi:
        wp.atomic_add(n, 0, 1)


def run():
    import sibling_ops as so

    a = wp.array(np.linspace(-3.0, 3.0, 7, dtype=np.float32), dtype=float)
    n = wp.zeros(1, dtype=int)
    wp.launch(count_outside, dim=7, inputs=[a, -1.0, 1.0, n])
    wp.launch(so.make_clip(lo=-1.0, hi=1.0), dim=7, inputs=[a])
    ops = importlib.import_module("sibling_ops")
    wp.launch(ops.make_wrap(2.0), dim=7, inputs=[a])
    print(n.numpy(), a.numpy())


if __name__ == "__main__":
    run()
