import numpy as np
import warp as wp
from kernels_lib import geometry as geo
from kernels_lib.shading import lambert


@wp.kernel
def render(img: wp.array2d(dtype=float), center: wp.vec3, radius: float, light: wp.vec3):
    y, x = wp.tid()
    h = img.shape[0]
    w = img.shape[1]
    u = (float(x) / float(w)) * 2.0 - 1.0
    v = (float(y) / float(h)) * 2.0 - 1.0
    r = geo.Ray()
    r.origin = wp.vec3(0.0, 0.0, -3.0)
    r.direction = wp.normalize(wp.vec3(u, v, 1.0))
    t = geo.sphere_hit(r, center, radius)
    c = float(0.0)
    if t > 0.0:
        p = r.origin + r.direction * t
        c = lambert(p - center, light)
    img[y, x] = geo.tone(c)


img = wp.zeros((16, 16), dtype=float, device="cpu")
wp.launch(render, dim=img.shape, inputs=[img, wp.vec3(0.0), 1.0, wp.vec3(1.0, 1.0, -1.0)], device="cpu")
print(np.round(img.numpy().mean(), 3))
