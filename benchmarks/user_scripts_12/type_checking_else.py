from typing import TYPE_CHECKING

import warp as wp

if TYPE_CHECKING:
    from numpy.typing import NDArray

    FloatArray = NDArray
else:
    FloatArray = wp.array(dtype=float)

    @wp.kernel
    def runtime_only(a: FloatArray, b: FloatArray):
        i = wp.tid()
        b[i] = a[i] * a[i] - 1.0


@wp.kernel
def uses_alias(a: FloatArray, s: float):
    i = wp.tid()
    a[i] = wp.sqrt(wp.abs(a[i])) * s


if __name__ == "__main__":
    a = wp.full(4, 4.0, dtype=float)
    b = wp.zeros(4, dtype=float)
    wp.launch(runtime_only, dim=4, inputs=[a, b])
    wp.launch(uses_alias, dim=4, inputs=[b, 2.0])
    print(b.numpy())
