"""Launches one kernel, then raises: the job failed, the completed launch is kept."""

import warp as wp

from capfix import kernels as k

if __name__ == "__main__":
    a = wp.ones(4, dtype=float, device="cpu")
    out = wp.zeros(4, dtype=float, device="cpu")
    wp.launch(k.scale, dim=4, inputs=[a, 3.0], outputs=[out], device="cpu")
    raise RuntimeError("the fixture fails here on purpose")
