# -*- coding: utf-8 -*-
# Glättung eines 1-D Signals (the file name is not ASCII)
import numpy as np
import warp as wp


@wp.kernel
def smooth_1d(src: wp.array(dtype=float), dst: wp.array(dtype=float)):
    i = wp.tid()
    n = src.shape[0]
    left = src[wp.max(i - 1, 0)]
    right = src[wp.min(i + 1, n - 1)]
    dst[i] = 0.25 * left + 0.5 * src[i] + 0.25 * right


@wp.kernel
def edge_detect(src: wp.array(dtype=float), edges: wp.array(dtype=wp.int32), threshold: float):
    i = wp.tid()
    if i == 0:
        edges[i] = 0
        return
    if wp.abs(src[i] - src[i - 1]) > threshold:
        edges[i] = 1
    else:
        edges[i] = 0


signal = wp.array(np.sign(np.sin(np.linspace(0, 12, 128))).astype(np.float32))
glatt = wp.zeros_like(signal)
wp.launch(smooth_1d, dim=signal.shape[0], inputs=[signal, glatt])
kanten = wp.zeros(signal.shape[0], dtype=wp.int32)
wp.launch(edge_detect, dim=signal.shape[0], inputs=[glatt, kanten, 0.4])
print("Kanten:", int(kanten.numpy().sum()))
