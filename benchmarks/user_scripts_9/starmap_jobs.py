"""Factories reached through itertools.starmap and threading.Thread(target=..., args=...)."""

import itertools
import threading

import numpy as np
import warp as wp


def make_shift(offset, scale):
    @wp.kernel
    def shift(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = x[i] * scale + offset

    return shift


def run_shift(offset, scale):
    k = make_shift(offset, scale)
    x = wp.array(np.ones(4, dtype=np.float32))
    wp.launch(k, dim=4, inputs=[x])
    return float(x.numpy()[0])


def make_gain(g):
    @wp.kernel
    def gain_k(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = x[i] * g

    return gain_k


def worker(g, out):
    k = make_gain(g)
    x = wp.array(np.ones(4, dtype=np.float32))
    wp.launch(k, dim=4, inputs=[x])
    out.append(float(x.numpy()[0]))


JOBS = [(1.0, 2.0), (-1.0, 0.5)]

if __name__ == "__main__":
    print(list(itertools.starmap(run_shift, JOBS)))
    results = []
    t = threading.Thread(target=worker, args=(3.0, results))
    t.start()
    t.join()
    print(results)
