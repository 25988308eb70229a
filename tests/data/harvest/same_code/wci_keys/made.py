"""Six kernels of one code under six names, made in reverse order of their names (Warp's tests make one
kernel per dtype from code that does not read it)."""

import warp as wp


def make(suffix):
    def same(a: wp.array(dtype=float)):
        a[wp.tid()] = 1.0

    return wp.Kernel(same, key=f"same_{suffix}")


KERNELS = [make(s) for s in ("f", "e", "d", "c", "b", "a")]
