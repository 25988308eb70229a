import warp as wp

wp.set_module_options({"enable_backward": False, "max_unroll": 4})


@wp.kernel
def unrolled(a: wp.array(dtype=float)):
    i = wp.tid()
    s = float(0.0)
    for k in range(8):
        s += a[i] * float(k)
    a[i] = s
