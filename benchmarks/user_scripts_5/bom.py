# saved by Notepad with "UTF-8 with BOM"
import warp as wp


@wp.kernel
def bom_square(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = x[i] * x[i]


@wp.kernel
def bom_sum(x: wp.array(dtype=float), s: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(s, 0, x[i])


x = wp.full(5, 3.0, dtype=float)
wp.launch(bom_square, dim=5, inputs=[x])
s = wp.zeros(1, dtype=float)
wp.launch(bom_sum, dim=5, inputs=[x, s])
print(s.numpy())
