# %% [markdown]
# # 2x3 affine maps
# Exported from a notebook (percent format).

# %%
import numpy as np
import warp as wp

mat23 = wp.types.matrix(shape=(2, 3), dtype=wp.float32)
vec2 = wp.vec2
vec3 = wp.vec3

# %%
@wp.kernel
def affine23(m: wp.array(dtype=mat23), p: wp.array(dtype=vec3), out: wp.array(dtype=vec2)):
    i = wp.tid()
    out[i] = m[i] * p[i]


# %%
@wp.kernel
def outer23(a: wp.array(dtype=vec2), b: wp.array(dtype=vec3), out: wp.array(dtype=mat23)):
    i = wp.tid()
    m = mat23()
    for r in range(2):
        for c in range(3):
            m[r, c] = a[i][r] * b[i][c]
    out[i] = m


# %%
if __name__ == "__main__":
    wp.init()
    n = 4
    m = wp.array(np.ones((n, 2, 3), dtype=np.float32), dtype=mat23)
    p = wp.array(np.ones((n, 3), dtype=np.float32), dtype=vec3)
    out = wp.zeros(n, dtype=vec2)
    wp.launch(affine23, dim=n, inputs=[m, p, out])
    o = wp.zeros(n, dtype=mat23)
    wp.launch(outer23, dim=n, inputs=[out, p, o])
    print(o.numpy()[0])
