#!/usr/bin/env python
# coding: utf-8

# # Warp tutorial notebook
# exported from Jupyter

# In[1]:


get_ipython().system('pip install warp-lang')


# In[2]:


import warp as wp
import numpy as np
get_ipython().run_line_magic('matplotlib', 'inline')

wp.init()


# In[3]:


@wp.kernel
def sine_wave(x: wp.array(dtype=float), y: wp.array(dtype=float), freq: float):
    tid = wp.tid()
    y[tid] = wp.sin(freq * x[tid])


# In[4]:


x = wp.array(np.linspace(0, 6.28, 100), dtype=float)
y = wp.zeros_like(x)
wp.launch(sine_wave, dim=100, inputs=[x, y, 2.0])
display(y.numpy()[:5])


# In[5]:


@wp.kernel
def mandelbrot(img: wp.array2d(dtype=float), max_iter: int):
    i, j = wp.tid()
    w = img.shape[1]
    h = img.shape[0]
    c = wp.vec2(3.0 * float(j) / float(w) - 2.0, 2.0 * float(i) / float(h) - 1.0)
    z = wp.vec2(0.0, 0.0)
    it = int(0)
    while it < max_iter and wp.length(z) < 2.0:
        z = wp.vec2(z[0] * z[0] - z[1] * z[1], 2.0 * z[0] * z[1]) + c
        it += 1
    img[i, j] = float(it) / float(max_iter)


# In[ ]:


img = wp.zeros((256, 384), dtype=float)
wp.launch(mandelbrot, dim=img.shape, inputs=[img, 100])
