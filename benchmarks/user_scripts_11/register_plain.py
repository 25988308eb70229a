import warp as wp

REGISTRY = {}


def register(fn):
    REGISTRY[fn.__name__] = wp.kernel(fn)
    return fn


@register
def reg_double(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = a[i] * 2.0


@register
def reg_inc(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = a[i] + 1.0


a = wp.ones(4, dtype=float)
for name, k in REGISTRY.items():
    wp.launch(k, dim=4, inputs=[a])
print(a.numpy())
