# %% [markdown]
# # Parameter sweep
# Exported from a notebook in the percent format.

# %%
import warp as wp

wp.init()

# %%
params = {"slow": 0.5, "fast": 2.0}
decays = [0.1, 0.2]


def make_gain(g):
    @wp.kernel
    def gain_cell(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] * g

    return gain_cell


def make_decay(r):
    @wp.kernel
    def decay_cell(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] * (1.0 - r)

    return decay_cell


# %%
kernels = {}
for name, g in params.items():
    kernels[name] = make_gain(g)
kernels.update({f"decay{k}": make_decay(r) for k, r in enumerate(decays)})

# %%
a = wp.full(4, 1.0, dtype=float)
for name, k in kernels.items():
    wp.launch(k, dim=4, inputs=[a])
a.numpy()
