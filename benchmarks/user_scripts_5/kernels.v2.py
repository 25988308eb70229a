# version 2 of my kernels (v1 was lost); the dot in the name is on purpose
import warp as wp

wp.set_module_options({"enable_backward": False})


@wp.kernel
def v2_scale(x: wp.array(dtype=wp.float64), s: wp.float64):
    i = wp.tid()
    x[i] = x[i] * s


@wp.kernel
def v2_bias(x: wp.array(dtype=wp.float64), b: wp.array(dtype=wp.float64)):
    i = wp.tid()
    x[i] += b[i % b.shape[0]]


if __name__ == "__main__":
    x = wp.full(10, 1.5, dtype=wp.float64)
    wp.launch(v2_scale, dim=10, inputs=[x, wp.float64(2.0)])
    wp.launch(v2_bias, dim=10, inputs=[x, wp.array([0.5, -0.5], dtype=wp.float64)])
    print(x.numpy())
