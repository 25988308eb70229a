"""Launches one kernel, then computes for ever: the capture's limit on CPU time must cut it."""

import warp as wp


@wp.kernel
def triple(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = a[i] * 3.0


if __name__ == "__main__":
    a = wp.ones(4, dtype=float, device="cpu")
    wp.launch(triple, dim=4, inputs=[a], device="cpu")
    n = 0
    while True:
        n += 1
