#!/usr/bin/env python
"""An older script: optparse at top level, options read by kernels and by a factory in main()."""

from optparse import OptionParser

import numpy as np
import warp as wp

parser = OptionParser(usage="%prog [options]")
parser.add_option("-g", "--gain", type="float", default=1.25, dest="gain")
parser.add_option("-n", "--iters", type="int", default=3, dest="iters")
parser.add_option("--clamp", action="store_true", default=False)
opts, rest = parser.parse_args()


@wp.kernel
def amplify(x: wp.array(dtype=float)):
    i = wp.tid()
    for _ in range(wp.static(opts.iters)):
        x[i] = x[i] * wp.static(opts.gain)
    if wp.static(opts.clamp):
        x[i] = wp.min(x[i], 1.0)


def make_threshold(level):
    @wp.kernel
    def threshold(x: wp.array(dtype=float), mask: wp.array(dtype=int)):
        i = wp.tid()
        mask[i] = int(x[i] > level)

    return threshold


def main():
    p = OptionParser()
    p.add_option("--level", type="float", default=0.5)
    o, _ = p.parse_args()
    x = wp.array(np.linspace(0, 1, 8, dtype=np.float32))
    wp.launch(amplify, dim=8, inputs=[x])
    m = wp.zeros(8, dtype=int)
    wp.launch(make_threshold(o.level), dim=8, inputs=[x, m])
    print(x.numpy(), m.numpy())


if __name__ == "__main__":
    main()
