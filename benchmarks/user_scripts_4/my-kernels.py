# my kernel collection; per-file module options
import numpy as np
import warp as wp

wp.set_module_options({"enable_backward": False, "fast_math": True})


@wp.kernel
def exp_decay(x: wp.array(dtype=float), rate: float):
    i = wp.tid()
    x[i] = x[i] * wp.exp(-rate)


@wp.kernel(enable_backward=False, module="unique")
def threshold(x: wp.array(dtype=float), t: float, mask: wp.array(dtype=wp.uint8)):
    i = wp.tid()
    mask[i] = wp.uint8(1) if x[i] > t else wp.uint8(0)


@wp.kernel(module="unique")
def count_mask(mask: wp.array(dtype=wp.uint8), count: wp.array(dtype=wp.int32)):
    i = wp.tid()
    if mask[i] != wp.uint8(0):
        wp.atomic_add(count, 0, 1)


def _smoothstep_body(x: wp.array(dtype=float), lo: float, hi: float):
    i = wp.tid()
    t = wp.clamp((x[i] - lo) / (hi - lo), 0.0, 1.0)
    x[i] = t * t * (3.0 - 2.0 * t)


smoothstep = wp.kernel(_smoothstep_body, enable_backward=False)

if __name__ == "__main__":
    x = wp.array(np.linspace(0, 2, 9, dtype=np.float32), device="cpu")
    wp.launch(exp_decay, dim=9, inputs=[x, 0.1], device="cpu")
    m = wp.zeros(9, dtype=wp.uint8, device="cpu")
    wp.launch(threshold, dim=9, inputs=[x, 0.5, m], device="cpu")
    c = wp.zeros(1, dtype=wp.int32, device="cpu")
    wp.launch(count_mask, dim=9, inputs=[m, c], device="cpu")
    wp.launch(smoothstep, dim=9, inputs=[x, 0.0, 1.0], device="cpu")
    print(c.numpy(), x.numpy().round(2))
