import math

import warp as wp

WEIGHTS = [0.1, 0.2, 0.4, 0.2, 0.1]
NAMES = ("x", "y", "z")
MODE = "Fast"


@wp.kernel
def normalized_stencil(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    n = a.shape[0]
    s = float(0.0)
    for k in range(wp.static(len(WEIGHTS))):
        s += wp.static(WEIGHTS[k] / sum(WEIGHTS)) * a[(i + k) % n]
    out[i] = s * wp.static(max(WEIGHTS) / min(WEIGHTS)) + wp.static(math.fsum(WEIGHTS))


@wp.kernel
def axis_pick(v: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    i = wp.tid()
    if wp.static(MODE.lower() == "fast"):
        out[i] = v[i][wp.static(NAMES.index("y"))]
    else:
        out[i] = wp.length(v[i])


if __name__ == "__main__":
    a = wp.ones(5, dtype=float)
    out = wp.zeros(5, dtype=float)
    wp.launch(normalized_stencil, dim=5, inputs=[a, out])
    v = wp.ones(5, dtype=wp.vec3)
    wp.launch(axis_pick, dim=5, inputs=[v, out])
    print(out.numpy())
