# `common/` has no __init__.py: an implicit namespace package
import warp as wp

from common.mathops import saturate, smin
from common import shapes
from common.fill import fill_common


@wp.kernel
def sdf_union(points: wp.array(dtype=wp.vec3), a: shapes.Sphere, b: shapes.Sphere, out: wp.array(dtype=float)):
    i = wp.tid()
    p = points[i]
    out[i] = smin(shapes.sphere_sdf(a, p), shapes.sphere_sdf(b, p), 0.2)


@wp.kernel
def shade(d: wp.array(dtype=float), c: wp.array(dtype=float)):
    i = wp.tid()
    c[i] = saturate(1.0 - d[i])


def main():
    n = 16
    pts = wp.array([wp.vec3(float(i) * 0.1, 0.0, 0.0) for i in range(n)], dtype=wp.vec3)
    a = shapes.Sphere()
    a.center = wp.vec3(0.0, 0.0, 0.0)
    a.radius = 0.5
    b = shapes.Sphere()
    b.center = wp.vec3(1.0, 0.0, 0.0)
    b.radius = 0.3
    d = wp.zeros(n, dtype=float)
    c = wp.zeros(n, dtype=float)
    wp.launch(fill_common, dim=n, inputs=[d, 1.0])
    wp.launch(sdf_union, dim=n, inputs=[pts, a, b, d])
    wp.launch(shade, dim=n, inputs=[d, c])
    print(c.numpy())


if __name__ == "__main__":
    main()
