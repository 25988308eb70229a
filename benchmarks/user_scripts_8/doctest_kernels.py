"""Small vector utilities.

>>> import numpy as np
>>> a = wp.array(np.array([3.0, 4.0], dtype=np.float32))
>>> out = wp.zeros(1, dtype=float)
>>> wp.launch(norm2, dim=2, inputs=[a, out])
>>> float(out.numpy()[0])
25.0
"""

import warp as wp


@wp.kernel
def norm2(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(out, 0, a[i] * a[i])


@wp.kernel
def normalize_by(a: wp.array(dtype=float), n: wp.array(dtype=float)):
    """Divide by the square root of n[0].

    >>> import numpy as np
    >>> a = wp.array(np.array([3.0, 4.0], dtype=np.float32))
    >>> wp.launch(normalize_by, dim=2, inputs=[a, wp.array(np.array([25.0], dtype=np.float32))])
    >>> a.numpy().tolist()
    [0.6000000238418579, 0.800000011920929]
    """
    i = wp.tid()
    a[i] = a[i] / wp.sqrt(n[0])


if __name__ == "__main__":
    import doctest

    # build first: the module-load line would land in the first launch's output
    wp.load_module(device="cpu")
    print(doctest.testmod())
