#!/usr/bin/env python
# coding: utf-8

# # Particle demo (exported from a notebook with `jupyter nbconvert --to script`)

# In[1]:


try:
    get_ipython().run_line_magic("matplotlib", "inline")  # noqa: F821
except NameError:
    pass
import numpy as np
import warp as wp

wp.config.quiet = True


# In[2]:


NUM = 32
RADIUS = 0.05


@wp.kernel
def bounce_floor(p: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    if p[i][1] < RADIUS:
        v[i] = wp.vec3(v[i][0], -v[i][1] * 0.8, v[i][2])


# In[3]:


@wp.kernel
def drift(p: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), dt: float):
    i = wp.tid()
    p[i] = p[i] + v[i] * dt


# In[4]:


p = wp.array(np.random.default_rng(0).random((NUM, 3)), dtype=wp.vec3)
v = wp.zeros(NUM, dtype=wp.vec3)
for _ in range(3):
    wp.launch(bounce_floor, dim=NUM, inputs=[p, v])
    wp.launch(drift, dim=NUM, inputs=[p, v, 0.01])
try:
    display(p.numpy()[:2])  # noqa: F821
except NameError:
    print(p.numpy()[:2])
