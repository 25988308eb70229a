"""Launches one kernel, then hangs: the time limit cuts it, the completed launch is kept."""

import time

import warp as wp

from capfix import kernels as k

if __name__ == "__main__":
    a = wp.ones(4, dtype=float, device="cpu")
    out = wp.zeros(4, dtype=float, device="cpu")
    wp.launch(k.scale, dim=4, inputs=[a, 2.0], outputs=[out], device="cpu")
    while True:
        time.sleep(1)
