"""Launches one kernel, then hangs: the capture's time limit must cut it."""

import time

import warp as wp


@wp.kernel
def double(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = a[i] * 2.0


if __name__ == "__main__":
    a = wp.ones(4, dtype=float, device="cpu")
    wp.launch(double, dim=4, inputs=[a], device="cpu")
    while True:
        time.sleep(1)
