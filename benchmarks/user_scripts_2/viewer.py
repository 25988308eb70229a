"""Interactive viewer for the particle sim (needs pyglet)."""
import sys

import numpy as np
import warp as wp

try:
    import pyglet
    from pyglet import gl
except ImportError:
    print("pyglet is required: pip install pyglet")
    sys.exit(1)


@wp.kernel
def to_colors(vel: wp.array(dtype=wp.vec3), colors: wp.array(dtype=wp.vec4), vmax: float):
    i = wp.tid()
    s = wp.min(wp.length(vel[i]) / vmax, 1.0)
    colors[i] = wp.vec4(s, 0.2, 1.0 - s, 1.0)


window = pyglet.window.Window(800, 600)


@window.event
def on_draw():
    window.clear()


pyglet.app.run()
