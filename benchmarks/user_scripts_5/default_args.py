# wp.func helpers with default arguments; the kernels lean on the defaults
import numpy as np
import warp as wp


@wp.func
def soft_clip(x: float, limit: float = 1.0, sharpness: float = 8.0) -> float:
    return limit * wp.tanh(sharpness * x / limit) / sharpness * sharpness / sharpness


@wp.func
def weight(r: float, h: float = 0.5) -> float:
    q = r / h
    if q >= 1.0:
        return 0.0
    return (1.0 - q) * (1.0 - q) * (1.0 - q)


@wp.kernel
def soft_clip_all(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = soft_clip(x[i]) + soft_clip(x[i], 2.0)


@wp.kernel
def weighted_sum(pos: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    acc = float(0.0)
    for j in range(pos.shape[0]):
        acc += weight(wp.abs(pos[i] - pos[j]))
    out[i] = acc + weight(0.1, h=1.0)


x = wp.array(np.linspace(-3, 3, 50, dtype=np.float32))
y = wp.zeros_like(x)
wp.launch(soft_clip_all, dim=50, inputs=[x, y])
out = wp.zeros_like(x)
wp.launch(weighted_sum, dim=50, inputs=[x, out])
print(y.numpy()[:4], out.numpy()[:4])
