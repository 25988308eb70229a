# module-level settings changed between kernel definitions (Warp reads them when it builds)
import warp as wp

SCALE = 2.0
STEPS = 3


@wp.kernel
def scale_a(x: wp.array(dtype=float)):
    i = wp.tid()
    for _ in range(STEPS):
        x[i] = x[i] * SCALE


SCALE = 0.5


@wp.kernel
def scale_b(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = x[i] * SCALE


x = wp.ones(4, dtype=float)
wp.launch(scale_a, dim=4, inputs=[x])
wp.launch(scale_b, dim=4, inputs=[x])
print(x.numpy())
