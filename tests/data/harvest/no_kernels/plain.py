"""A Python file without Warp kernels."""


def add(a: int, b: int) -> int:
    return a + b
