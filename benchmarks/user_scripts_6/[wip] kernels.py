# square brackets in the file name (a glob character class)
import warp as wp


@wp.kernel
def bracket_square(a: wp.array(dtype=float)):
    a[wp.tid()] = a[wp.tid()] * a[wp.tid()]


@wp.kernel
def bracket_shift(a: wp.array(dtype=float), s: float):
    a[wp.tid()] = a[wp.tid()] + s


a = wp.full(3, 2.0, dtype=float)
wp.launch(bracket_square, dim=3, inputs=[a])
wp.launch(bracket_shift, dim=3, inputs=[a, 1.0])
print(a.numpy())
