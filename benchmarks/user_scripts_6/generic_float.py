# generics constrained with wp.Float / wp.Scalar, specialised by explicit wp.overload and at launch
import numpy as np
import warp as wp




@wp.kernel
def normalize_generic(x: wp.array(dtype=wp.Float), scale: wp.Float):
    i = wp.tid()
    x[i] = x[i] * scale


@wp.kernel
def count_above(x: wp.array(dtype=wp.Scalar), t: wp.Scalar, c: wp.array(dtype=int)):
    i = wp.tid()
    if x[i] > t:
        wp.atomic_add(c, 0, 1)


wp.overload(normalize_generic, [wp.array(dtype=wp.float64), wp.float64])
wp.overload(count_above, {"x": wp.array(dtype=wp.int32), "t": wp.int32})

a = wp.array(np.arange(4, dtype=np.float64), dtype=wp.float64)
wp.launch(normalize_generic, dim=4, inputs=[a, wp.float64(0.5)])
b = wp.array(np.arange(6, dtype=np.float32))
wp.launch(normalize_generic, dim=6, inputs=[b, 2.0])
c = wp.zeros(1, dtype=int)
wp.launch(count_above, dim=6, inputs=[wp.array(np.arange(6, dtype=np.int32)), 2, c])
print(a.numpy(), b.numpy(), c.numpy())
