# my-kernels.py has a dash in its name, so load it by path
import importlib.util
from pathlib import Path

import numpy as np
import warp as wp

_spec = importlib.util.spec_from_file_location("my_kernels", Path(__file__).with_name("my-kernels.py"))
mk = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mk)


@wp.kernel
def normalize_max(x: wp.array(dtype=float), mx: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = x[i] / wp.max(mx[0], 1.0e-8)


@wp.kernel
def reduce_max(x: wp.array(dtype=float), mx: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_max(mx, 0, x[i])


x = wp.array(np.random.rand(16).astype(np.float32) * 5.0, device="cpu")
wp.launch(mk.exp_decay, dim=16, inputs=[x, 0.5], device="cpu")
mx = wp.zeros(1, dtype=float, device="cpu")
wp.launch(reduce_max, dim=16, inputs=[x, mx], device="cpu")
wp.launch(normalize_max, dim=16, inputs=[x, mx], device="cpu")
print(x.numpy().max())
