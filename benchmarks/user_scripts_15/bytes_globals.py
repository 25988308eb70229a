"""Constants recovered from a binary header, the way an old file format stores them."""

import math
import struct

import warp as wp

HEADER = bytes.fromhex("0000c03f" "0a000000")
SCALE = struct.unpack_from("<f", HEADER, 0)[0]
COUNT = int.from_bytes(HEADER[4:8], "little")
HALF_PI = float.fromhex("0x1.921fb54442d18p+0")
STRIDE = math.gcd(12, 18)
NORM = 1.0 / math.factorial(4)


@wp.kernel
def magic_scale(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = x[i] * SCALE * NORM + wp.sin(HALF_PI)


@wp.kernel
def gcd_stride(src: wp.array(dtype=float), dst: wp.array(dtype=float)):
    i = wp.tid()
    j = (i * STRIDE) % COUNT
    dst[i] = src[j]


if __name__ == "__main__":
    x = wp.ones(COUNT, dtype=float)
    y = wp.zeros(COUNT, dtype=float)
    wp.launch(magic_scale, dim=COUNT, inputs=[x])
    wp.launch(gcd_stride, dim=COUNT, inputs=[x, y])
    print(y.numpy())
