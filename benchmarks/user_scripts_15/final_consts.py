from typing import Final

import warp as wp

MAX_ITERS: Final[int] = 6
TOL: Final = 1.0e-4
GAIN: float = 0.5
OFFSET: "float" = 0.125


@wp.kernel
def newton_sqrt_final(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = wp.max(a[i], 1.0)
    for _ in range(MAX_ITERS):
        nx = 0.5 * (x + a[i] / x)
        if wp.abs(nx - x) < TOL:
            break
        x = nx
    out[i] = x


@wp.kernel
def annotated_affine(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = GAIN * x[i] + OFFSET


if __name__ == "__main__":
    a = wp.array([4.0, 9.0, 2.0], dtype=float)
    out = wp.zeros(3, dtype=float)
    wp.launch(newton_sqrt_final, dim=3, inputs=[a, out])
    wp.launch(annotated_affine, dim=3, inputs=[out])
    print(out.numpy())
