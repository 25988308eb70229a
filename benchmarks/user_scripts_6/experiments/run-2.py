# a script in a subfolder importing the parent's namespace package `common` after a sys.path insert
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import warp as wp  # noqa: E402
from common.mathops import smin  # noqa: E402


@wp.kernel
def soft_min_rows(a: wp.array2d(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    m = a[i, 0]
    for j in range(1, a.shape[1]):
        m = smin(m, a[i, j], 0.1)
    out[i] = m


a = wp.array([[1.0, 2.0, 0.5], [3.0, 0.2, 0.9]], dtype=float)
out = wp.zeros(2, dtype=float)
wp.launch(soft_min_rows, dim=2, inputs=[a, out])
print(out.numpy())
