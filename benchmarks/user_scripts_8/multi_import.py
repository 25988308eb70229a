import os, sys, warp as wp, numpy as np  # noqa: E401

VERBOSE = bool(os.environ.get("VERBOSE"))


@wp.kernel
def squares(a: wp.array(dtype=wp.int32)):
    i = wp.tid()
    a[i] = i * i


@wp.kernel
def count_odd(a: wp.array(dtype=wp.int32), n: wp.array(dtype=wp.int32)):
    i = wp.tid()
    if a[i] % 2 == 1:
        wp.atomic_add(n, 0, 1)


a = wp.zeros(10, dtype=wp.int32)
n = wp.zeros(1, dtype=wp.int32)
wp.launch(squares, dim=10, inputs=[a])
wp.launch(count_odd, dim=10, inputs=[a, n])
if VERBOSE or len(sys.argv) == 1:
    print(a.numpy(), n.numpy(), np.sum(a.numpy()))
