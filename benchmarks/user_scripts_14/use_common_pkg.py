import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import warp as wp  # noqa: E402

import common  # noqa: E402
from common import builders as B  # noqa: E402


@wp.kernel
def count_pkg(v: wp.array(dtype=float), n: wp.array(dtype=int)):
    i = wp.tid()
    if v[i] > 0.0:
        wp.atomic_add(n, 0, 1)


def main():
    v = wp.full(5, 2.0, dtype=float)
    wp.launch(common.make_damp(0.9), dim=5, inputs=[v])
    wp.launch(B.make_clamp(-1.0, 1.0), dim=5, inputs=[v])
    n = wp.zeros(1, dtype=int)
    wp.launch(count_pkg, dim=5, inputs=[v, n])
    print(v.numpy(), n.numpy())


if __name__ == "__main__":
    main()
