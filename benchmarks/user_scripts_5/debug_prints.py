import warp as wp

wp.config.verify_fp = False


@wp.kernel
def show_values(x: wp.array(dtype=wp.float16), every: int):
    i = wp.tid()
    if i % every == 0:
        wp.printf("x[%d] = %f\n", i, float(x[i]))


@wp.kernel
def half_ops(x: wp.array(dtype=wp.float16), y: wp.array(dtype=wp.float16)):
    i = wp.tid()
    y[i] = x[i] * wp.float16(0.5) + wp.float16(1.0)
    wp.print(y[i])


x = wp.full(6, 2.0, dtype=wp.float16)
y = wp.zeros_like(x)
with wp.ScopedTimer("debug kernels", synchronize=True):
    wp.launch(show_values, dim=6, inputs=[x, 3])
    wp.launch(half_ops, dim=6, inputs=[x, y])
print(y.numpy())
