# a kernel built from a string template (the text is generated, then handed to Warp)
import linecache

import warp as wp

TEMPLATE = '''
@wp.kernel
def poly_{degree}(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    v = x[i]
    acc = float(0.0)
    p = float(1.0)
    for k in range({degree} + 1):
        acc += p
        p = p * v
    y[i] = acc
'''


def kernel_from_text(degree):
    src = TEMPLATE.format(degree=degree)
    filename = f"<generated poly_{degree}>"
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    ns = {"wp": wp}
    exec(compile(src, filename, "exec"), ns)
    return ns[f"poly_{degree}"]


@wp.kernel
def reference_poly3(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    v = x[i]
    y[i] = 1.0 + v + v * v + v * v * v


x = wp.full(4, 2.0, dtype=float)
y = wp.zeros(4, dtype=float)
y_ref = wp.zeros(4, dtype=float)
poly_3 = kernel_from_text(3)
wp.launch(poly_3, dim=4, inputs=[x, y])
wp.launch(reference_poly3, dim=4, inputs=[x, y_ref])
print(y.numpy(), y_ref.numpy())
