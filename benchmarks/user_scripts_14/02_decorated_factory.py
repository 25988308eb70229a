"""Kernel factories wrapped by the user's own logging and timing decorators."""

import functools
import logging
import time

import warp as wp

log = logging.getLogger(__name__)


def log_calls(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        log.debug("calling %s%r", fn.__name__, args)
        return fn(*args, **kwargs)

    return wrapper


def timed(label):
    def deco(fn):
        @functools.wraps(fn)
        def inner(*args, **kwargs):
            t0 = time.perf_counter()
            out = fn(*args, **kwargs)
            log.debug("%s took %.3f s", label, time.perf_counter() - t0)
            return out

        return inner

    return deco


@log_calls
def make_gain(g):
    @wp.kernel
    def gain_logged(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] * g

    return gain_logged


@timed("build offset")
def make_offset(off, clamp=False):
    @wp.kernel
    def offset_timed(a: wp.array(dtype=float)):
        i = wp.tid()
        v = a[i] + off
        if wp.static(clamp):
            v = wp.clamp(v, -1.0, 1.0)
        a[i] = v

    return offset_timed


def main():
    a = wp.full(4, 0.5, dtype=float)
    wp.launch(make_gain(2.0), dim=4, inputs=[a])
    wp.launch(make_offset(0.25, clamp=True), dim=4, inputs=[a])
    print(a.numpy())


if __name__ == "__main__":
    main()
