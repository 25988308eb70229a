from enum import Enum

import numpy as np
import warp as wp


class Scheme(Enum):
    UPWIND = "upwind"
    CENTRAL = "central"

    def kernel(self):
        if self is Scheme.UPWIND:

            @wp.kernel
            def upwind_diff(u: wp.array(dtype=float), du: wp.array(dtype=float)):
                i = wp.tid()
                if i > 0:
                    du[i] = u[i] - u[i - 1]

            return upwind_diff

        @wp.kernel
        def central_diff(u: wp.array(dtype=float), du: wp.array(dtype=float)):
            i = wp.tid()
            n = u.shape[0]
            if i > 0 and i < n - 1:
                du[i] = 0.5 * (u[i + 1] - u[i - 1])

        return central_diff


def main():
    u = wp.array(np.arange(8, dtype=np.float32) ** 2, dtype=float)
    du = wp.zeros_like(u)
    for scheme in (Scheme.UPWIND, Scheme("central")):
        wp.launch(scheme.kernel(), dim=8, inputs=[u, du])
        print(scheme.name, du.numpy())


if __name__ == "__main__":
    main()
