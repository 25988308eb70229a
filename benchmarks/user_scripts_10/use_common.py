import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import warp as wp  # noqa: E402
from common.kernel_utils import make_normalizer, make_scaler, safe_div  # noqa: E402

SCALES = {"half": 0.5, "double": 2.0}


@wp.kernel
def ratio(a: wp.array(dtype=float), b: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = safe_div(a[i], b[i])


def run(kind: str = "l2"):
    a = wp.ones(4, dtype=float)
    ref = wp.full(1, 4.0, dtype=float)
    for name, s in SCALES.items():
        wp.launch(make_scaler(s), dim=4, inputs=[a])
    wp.launch(make_normalizer(kind), dim=4, inputs=[a, ref])
    out = wp.zeros(4, dtype=float)
    wp.launch(ratio, dim=4, inputs=[a, a, out])
    return out.numpy()


if __name__ == "__main__":
    print(run("max"))
    print(run())
