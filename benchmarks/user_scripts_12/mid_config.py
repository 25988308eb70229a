import warp as wp

wp.config.quiet = True


@wp.kernel
def with_grad(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = wp.sin(a[i]) * a[i]


wp.config.enable_backward = False
wp.config.mode = "debug"


@wp.kernel
def after_config(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = wp.cos(a[i]) + a[i]


if __name__ == "__main__":
    a = wp.ones(4, dtype=float)
    out = wp.zeros(4, dtype=float)
    wp.launch(with_grad, dim=4, inputs=[a, out])
    wp.launch(after_config, dim=4, inputs=[a, out])
    print(out.numpy())
