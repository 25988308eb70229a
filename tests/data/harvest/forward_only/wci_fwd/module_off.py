import warp as wp

wp.set_module_options({"enable_backward": False})


@wp.func
def damp(x: float, k: float):
    return x * wp.exp(-k * x)


@wp.kernel
def smooth(a: wp.array(dtype=float), k: float, b: wp.array(dtype=float)):
    i = wp.tid()
    b[i] = damp(a[i], k) + wp.sin(a[i])
