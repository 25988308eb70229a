# global wp.config.enable_backward = False, then per-module options (max_unroll, fast_math, lineinfo)
import warp as wp

wp.config.enable_backward = False
wp.set_module_options({"max_unroll": 2, "fast_math": True})
wp.set_module_options({"lineinfo": True})


@wp.kernel
def unrolled_sum(a: wp.array2d(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    s = float(0.0)
    for j in range(8):
        s += a[i, j]
    out[i] = s


@wp.kernel(enable_backward=True)
def smooth_abs(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = wp.sqrt(a[i] * a[i] + 1.0e-4)


a = wp.ones((2, 8), dtype=float)
o = wp.zeros(2, dtype=float)
wp.launch(unrolled_sum, dim=2, inputs=[a, o])
wp.launch(smooth_abs, dim=2, inputs=[o, o])
print(o.numpy())
