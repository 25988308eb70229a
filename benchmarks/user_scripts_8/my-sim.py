#!/usr/bin/env python3
"""Tiny particle sim; the step sizes come from the command line and live in globals."""

import argparse

import numpy as np
import warp as wp

DRAG = 0.0  # set by main()


@wp.kernel
def euler_step(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v[i] = v[i] + wp.vec3(0.0, -9.8, 0.0) * DT
    x[i] = x[i] + v[i] * DT


@wp.kernel
def apply_drag(v: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v[i] = v[i] * (1.0 - DRAG)


def main():
    global DRAG
    DRAG = args.drag
    x = wp.zeros(64, dtype=wp.vec3)
    v = wp.array(np.random.default_rng(0).normal(size=(64, 3)).astype(np.float32), dtype=wp.vec3)
    for _ in range(args.steps):
        wp.launch(euler_step, dim=64, inputs=[x, v])
        wp.launch(apply_drag, dim=64, inputs=[v])
    print(x.numpy()[0])


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--dt", type=float, default=1.0 / 60.0)
    parser.add_argument("--drag", type=float, default=0.01)
    parser.add_argument("--steps", type=int, default=10)
    args = parser.parse_args()
    DT = args.dt
    main()
