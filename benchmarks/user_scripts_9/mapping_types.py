"""collections.OrderedDict, defaultdict, Counter and MappingProxyType read with wp.static."""

import collections
import types

import numpy as np
import warp as wp

LAYERS = collections.OrderedDict([("skin", 0.1), ("fat", 0.4), ("muscle", 1.2)])
EXTRA = collections.defaultdict(float, {"muscle": 0.3})
COUNTS = collections.Counter("aabbbc")
FROZEN = types.MappingProxyType({"lo": -2.0, "hi": 2.0})
NAMES = list(LAYERS)


@wp.kernel
def layered_stiffness(depth: wp.array(dtype=int), k: wp.array(dtype=float)):
    i = wp.tid()
    d = depth[i]
    for j in range(wp.static(len(NAMES))):
        if d == j:
            k[i] = wp.static(LAYERS[NAMES[j]] + EXTRA[NAMES[j]])


@wp.kernel
def count_weighted(x: wp.array(dtype=float)):
    i = wp.tid()
    w = wp.static(float(COUNTS["b"]) / float(sum(COUNTS.values())))
    x[i] = wp.clamp(x[i] * w, wp.static(FROZEN["lo"]), wp.static(FROZEN["hi"]))


depth = wp.array(np.array([0, 1, 2, 2], dtype=np.int32))
k = wp.zeros(4, dtype=float)
wp.launch(layered_stiffness, dim=4, inputs=[depth, k])
x = wp.array(np.arange(4, dtype=np.float32))
wp.launch(count_weighted, dim=4, inputs=[x])
print(k.numpy(), x.numpy())
