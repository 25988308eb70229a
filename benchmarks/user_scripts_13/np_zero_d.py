import numpy as np
import warp as wp

SCALE = np.array(2.5)  # a 0-d array, e.g. loaded from an .npz file
FLAG = np.bool_(True)
OFFSET = np.float64(0.125)


@wp.kernel
def scale_zero_d(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = a[i] * wp.static(float(SCALE)) + wp.static(float(OFFSET))


@wp.kernel
def flagged_abs(a: wp.array(dtype=float)):
    i = wp.tid()
    if wp.static(bool(FLAG)):
        a[i] = wp.abs(a[i])


if __name__ == "__main__":
    a = wp.array([-1.0, 2.0, -3.0], dtype=float)
    wp.launch(scale_zero_d, dim=3, inputs=[a])
    wp.launch(flagged_abs, dim=3, inputs=[a])
    print(a.numpy())
