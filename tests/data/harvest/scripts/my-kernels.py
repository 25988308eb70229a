# A folder of scripts as users write them: run with `python my-kernels.py`, kernels made where they are used.
from typing import Any

import numpy as np

import warp as wp

BLOCK_DIM = 8
TILE_N = 32
SCALE = 2.0


# Its code depends on the block size: the FFT is spread over the block's threads, so Warp generates no
# code at the module's default 256; the launch below names 8.
@wp.kernel
def fft_rows(x: wp.array2d[wp.vec2d], y: wp.array2d[wp.vec2d]):
    a = wp.tile_load(x, shape=(1, TILE_N))
    wp.tile_fft(a)
    wp.tile_store(y, a)


# The two scripts of this folder both name this Warp module and this kernel, each its own.
@wp.kernel(module="shared_name")
def scale(a: wp.array[float]):
    i = wp.tid()
    a[i] = a[i] * SCALE


# Generic: the script's run picks the types (never, here); as written, Warp generates no code for it.
@wp.kernel
def scale_blocks(values: wp.array[Any], factor: wp.array[float]):
    i = wp.tid()
    values[i] = values[i] * factor[i]


# Generic, and only a matrix type generates: `v[0, 0]` indexes two dimensions.
@wp.kernel
def trace_blocks(values: wp.array(dtype=Any), out: wp.array[float]):
    i = wp.tid()
    v = values[i]
    out[i] = float(v[0, 0] + v[1, 1] + v[2, 2])


class Simulation:
    def __init__(self, n: int):
        self.n = n

    def step(self, a: wp.array):
        # Made when a simulation steps, which loading the script never does; it captures nothing.
        @wp.kernel
        def advance(a: wp.array[float], dt: float):
            i = wp.tid()
            a[i] = a[i] + dt * SCALE

        wp.launch(advance, dim=self.n, inputs=[a, 0.1])


def make_offset(offset: float):
    # A factory: the kernel's code depends on the argument, which only a call gives.
    @wp.kernel
    def add_offset(a: wp.array[float]):
        i = wp.tid()
        a[i] = a[i] + offset

    return add_offset


def main():
    @wp.kernel(enable_backward=False)
    def clamp_all(a: wp.array[float], hi: float):
        i = wp.tid()
        a[i] = wp.min(a[i], hi)

    x = wp.array(np.ones((1, TILE_N, 2)), dtype=wp.vec2d, device="cuda:0")
    y = wp.zeros_like(x)
    wp.launch_tiled(fft_rows, dim=[1, 1], inputs=[x], outputs=[y], block_dim=BLOCK_DIM)
    wp.launch(clamp_all, dim=1, inputs=[wp.zeros(1, dtype=float), 1.0])


if __name__ == "__main__":

    @wp.kernel
    def negate(a: wp.array[float]):
        i = wp.tid()
        a[i] = -a[i] * SCALE

    main()
