# configparser reading params.ini from the working directory, a wp.constant int from it
import configparser

import warp as wp

cfg = configparser.ConfigParser()
cfg.read("params.ini")
OMEGA = cfg.getfloat("relax", "omega", fallback=0.5)
ITERS = wp.constant(cfg.getint("relax", "iterations", fallback=3))


@wp.kernel
def sor_relax(x: wp.array(dtype=float), b: wp.array(dtype=float)):
    i = wp.tid()
    n = x.shape[0]
    for _it in range(ITERS):
        left = x[wp.max(i - 1, 0)]
        right = x[wp.min(i + 1, n - 1)]
        x[i] = (1.0 - OMEGA) * x[i] + OMEGA * 0.5 * (left + right + b[i])


x = wp.zeros(8, dtype=float)
b = wp.full(8, 0.1, dtype=float)
wp.launch(sor_relax, dim=8, inputs=[x, b])
print(x.numpy())
