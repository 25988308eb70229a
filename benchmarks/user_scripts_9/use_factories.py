"""Calls a sibling module's factories: from factories import make_clip; import factories as fx."""

import numpy as np
import warp as wp

import factories as fx
from factories import make_clip

clip_unit = make_clip(-1.0, 1.0)
wave3 = fx.make_wave(3)

t = wp.array(np.linspace(0, 6.28, 16, dtype=np.float32))
y = wp.zeros(16, dtype=float)
wp.launch(wave3, dim=16, inputs=[t, y])
wp.launch(clip_unit, dim=16, inputs=[y])
print(y.numpy()[:4])
