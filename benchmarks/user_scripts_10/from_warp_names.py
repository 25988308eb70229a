import warp
from warp import array, atomic_add, func, kernel, launch, vec3, zeros
from warp import length as vlen


@func
def hinge(x: float):
    return warp.max(x, 0.0)


@kernel
def sum_hinged(a: array(dtype=float), total: array(dtype=float)):
    i = warp.tid()
    atomic_add(total, 0, hinge(a[i] - 0.5))


@kernel
def lengths_bare(p: array(dtype=vec3), out: array(dtype=float)):
    i = warp.tid()
    out[i] = vlen(p[i] + vec3(1.0, 0.0, 0.0))


a = zeros(4, dtype=float)
t = zeros(1, dtype=float)
launch(sum_hinged, dim=4, inputs=[a, t])
p = zeros(4, dtype=vec3)
o = zeros(4, dtype=float)
launch(lengths_bare, dim=4, inputs=[p, o])
print(t.numpy(), o.numpy())
