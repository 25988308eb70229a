# the warp module got through importlib (a plugin loader does it like this)
import importlib

import numpy as np

wp = importlib.import_module("warp")
np_ = __import__("numpy")


@wp.kernel
def plugin_scale(a: wp.array(dtype=float), s: float):
    i = wp.tid()
    a[i] = a[i] * s


@wp.kernel
def plugin_offset(a: wp.array(dtype=float), o: float):
    i = wp.tid()
    a[i] = a[i] + o


a = wp.array(np_.arange(4, dtype=np.float32))
wp.launch(plugin_scale, dim=4, inputs=[a, 3.0])
wp.launch(plugin_offset, dim=4, inputs=[a, 1.0])
print(a.numpy())
