import warp as wp

__all__ = ["EPS", "helpers_reset", "remap01", "smoothstep"]

EPS = wp.constant(1.0e-6)


@wp.func
def smoothstep(e0: float, e1: float, x: float):
    t = wp.clamp((x - e0) / (e1 - e0 + EPS), 0.0, 1.0)
    return t * t * (3.0 - 2.0 * t)


@wp.func
def remap01(x: float, lo: float, hi: float):
    return (x - lo) / (hi - lo + EPS)


def _host_only():
    return 42


@wp.kernel
def helpers_reset(a: wp.array(dtype=float)):
    a[wp.tid()] = 0.0
