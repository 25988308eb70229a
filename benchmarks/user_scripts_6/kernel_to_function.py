# a kernel's name later rebound to a host wrapper of the same name; a kernel deleted after use
import warp as wp


@wp.kernel
def relax(x: wp.array(dtype=float), w: float):
    i = wp.tid()
    if i > 0 and i < x.shape[0] - 1:
        x[i] = (1.0 - w) * x[i] + w * 0.5 * (x[i - 1] + x[i + 1])


_relax_kernel = relax


def relax(x, w=0.5, iters=4):  # noqa: F811
    for _ in range(iters):
        wp.launch(_relax_kernel, dim=x.shape[0], inputs=[x, w])
    return x


@wp.kernel
def scratch(a: wp.array(dtype=float)):
    a[wp.tid()] = a[wp.tid()] * 2.0


x = wp.array([0.0, 1.0, 0.0, 1.0, 0.0], dtype=float)
relax(x)
wp.launch(scratch, dim=5, inputs=[x])
del scratch
print(x.numpy())
