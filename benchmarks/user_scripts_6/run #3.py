# a '#' in the file name
import warp as wp


@wp.kernel
def hash_name_add(a: wp.array(dtype=float), b: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = a[i] + b[i]


@wp.kernel
def hash_name_neg(a: wp.array(dtype=float)):
    a[wp.tid()] = -a[wp.tid()]


a = wp.ones(3, dtype=float)
wp.launch(hash_name_add, dim=3, inputs=[a, a])
wp.launch(hash_name_neg, dim=3, inputs=[a])
print(a.numpy())
