"""Launches every fixture kernel a few times on the CPU (the capture records the first ones)."""

import argparse

import numpy as np
import warp as wp

from capfix import kernels as k


def main(steps: int) -> None:
    rng = np.random.default_rng(0)
    a = wp.array(rng.uniform(-1, 1, 16).astype(np.float32), dtype=float, device="cpu")
    out = wp.zeros(16, dtype=float, device="cpu")
    x = wp.array(rng.uniform(-1, 1, (8, 3)).astype(np.float32), dtype=wp.vec3, device="cpu")
    v = wp.zeros(8, dtype=wp.vec3, device="cpu")
    p = k.Params()
    p.gravity = wp.vec3(0.0, -9.8, 0.0)
    p.damping = 0.99
    p.mass = wp.array(np.linspace(1, 2, 8, dtype=np.float32), dtype=float, device="cpu")
    flags = wp.array(rng.integers(0, 2, 32).astype(np.int32), dtype=wp.int32, device="cpu")
    total = wp.zeros(1, dtype=wp.int32, device="cpu")
    for step in range(steps):
        wp.launch(k.scale, dim=16, inputs=[a, 1.5 + step], outputs=[out], device="cpu")
        wp.launch(k.integrate, dim=8, inputs=[x, v, wp.quat_rpy(0.1, 0.2, 0.3), 0.01], device="cpu")
        wp.launch(k.apply_params, dim=8, inputs=[p, v, wp.mat22(1.0, 0.5, 0.0, 1.0)], device="cpu")
        wp.launch(k.add_generic, dim=16, inputs=[a, out], device="cpu")
        wp.launch(k.add_generic, dim=8, inputs=[x, v], device="cpu")
        wp.launch(k.count, dim=32, inputs=[flags, total], device="cpu")
    rows = wp.array(np.arange(32, dtype=np.float32).reshape(4, 8), device="cpu")
    wp.launch_tiled(k.row_sums, dim=[4], inputs=[rows, out], block_dim=32, device="cpu")
    idx = wp.array(np.arange(0, 16, 2, dtype=np.int32), dtype=wp.int32, device="cpu")
    wp.launch(k.gather, dim=8, inputs=[wp.indexedarray(a, [idx]), out], device="cpu")
    corners = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], dtype=np.float32)
    mesh = wp.Mesh(wp.array(corners, dtype=wp.vec3, device="cpu"), wp.array([0, 1, 2], dtype=int, device="cpu"))
    wp.launch(k.by_id, dim=8, inputs=[mesh.id, x, out], device="cpu")
    keys = wp.array(rng.integers(0, 2**63, 8, dtype=np.uint64) * np.uint64(2) + np.uint64(1), device="cpu")
    hashes = wp.zeros(8, dtype=wp.uint64, device="cpu")
    wp.launch(k.hash_keys, dim=8, inputs=[keys, wp.uint64(2**64 - 59), hashes], device="cpu")
    # src and dst overlap (dst is src shifted by one): on the CPU each thread sees its predecessor's write,
    # which a record holding two separate arrays cannot reproduce.
    ramp = wp.zeros(9, dtype=float, device="cpu")
    wp.launch(k.shift, dim=8, inputs=[ramp[:8], ramp[1:]], device="cpu")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=3)
    main(parser.parse_args().steps)
