import contextlib
import os
import warnings

import numpy as np
import warp as wp

if (n := int(os.environ.get("N_POINTS", "24"))) > 8:

    @wp.kernel
    def spread(a: wp.array(dtype=float), n: int):
        i = wp.tid()
        a[i] = float(i) / float(n - 1)

with contextlib.suppress(ImportError):
    import scipy  # noqa: F401  (optional)

    @wp.kernel
    def only_with_scipy(a: wp.array(dtype=float)):
        a[wp.tid()] = 1.0

with warnings.catch_warnings():
    warnings.simplefilter("ignore")

    @wp.kernel
    def quiet_square(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] * a[i]

a = wp.zeros(n, dtype=float)
wp.launch(spread, dim=n, inputs=[a, n])
wp.launch(quiet_square, dim=n, inputs=[a])
print(a.numpy()[-3:])
