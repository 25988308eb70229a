from __future__ import annotations

from typing import overload

import warp as wp


@overload
def make_fill(value: int) -> wp.Kernel: ...


@overload
def make_fill(value: float) -> wp.Kernel: ...


def make_fill(value):
    """A kernel filling an array of the value's own type."""
    if isinstance(value, int):

        @wp.kernel
        def fill_int(a: wp.array(dtype=wp.int32)):
            a[wp.tid()] = value

        return fill_int

    @wp.kernel
    def fill_float(a: wp.array(dtype=float)):
        a[wp.tid()] = value

    return fill_float


def main() -> None:
    ai = wp.zeros(4, dtype=wp.int32)
    af = wp.zeros(4, dtype=float)
    wp.launch(make_fill(3), dim=4, inputs=[ai])
    wp.launch(make_fill(2.5), dim=4, inputs=[af])
    print(ai.numpy(), af.numpy())


if __name__ == "__main__":
    main()
