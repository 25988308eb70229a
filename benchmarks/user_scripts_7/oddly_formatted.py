# fmt: off
import numpy as np
import warp as wp

@ wp.kernel
def spaced_decorator(a : wp.array( dtype = float ) ,
                     b : wp.array( dtype = float ) , ) :
  i = wp.tid() ; a[i] = b[i] * 2.0
  if a[i] > 4.0 : a[i] = 4.0


@wp.kernel ()
def empty_call_decorator(a: wp.array(dtype=float)):  # trailing comment on the def line
    """Docstring that mentions @wp.kernel and def fake(): pass."""
    i = wp.tid()

    # a comment with a quote ' and a """ triple quote inside
    a[i] = (a[i]
            + 1.0)  # closing on the next line
    for j in range(2): a[i] += float(j)


b = wp.array(np.arange(5, dtype=np.float32))
a = wp.zeros(5, dtype=float)
wp.launch(spaced_decorator, dim=5, inputs=[a, b])
wp.launch(empty_call_decorator, dim=5, inputs=[a])
print(a.numpy())
