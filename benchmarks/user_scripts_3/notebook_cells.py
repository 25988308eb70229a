# %% [markdown]
# # Exploring Warp in a notebook (exported as percent-format script)

# %%
import numpy as np
import warp as wp

wp.config.quiet = True
wp.init()

# %%
@wp.kernel
def mandel(out: wp.array2d(dtype=int), max_iter: int):
    i, j = wp.tid()
    h = out.shape[0]
    w = out.shape[1]
    cx = -2.0 + 3.0 * float(j) / float(w)
    cy = -1.5 + 3.0 * float(i) / float(h)
    x = float(0.0)
    y = float(0.0)
    n = int(0)
    while n < max_iter and x * x + y * y < 4.0:
        xt = x * x - y * y + cx
        y = 2.0 * x * y + cy
        x = xt
        n += 1
    out[i, j] = n

# %%
out = wp.zeros((24, 32), dtype=int, device="cpu")
wp.launch(mandel, dim=out.shape, inputs=[out, 50], device="cpu")
out.numpy().mean()

# %%
@wp.kernel
def histogram_bins(vals: wp.array2d(dtype=int), bins: wp.array(dtype=int)):
    i, j = wp.tid()
    b = wp.min(vals[i, j] // 10, bins.shape[0] - 1)
    wp.atomic_add(bins, b, 1)

bins = wp.zeros(6, dtype=int, device="cpu")
wp.launch(histogram_bins, dim=out.shape, inputs=[out, bins], device="cpu")
print(bins.numpy(), np.sum(bins.numpy()))
