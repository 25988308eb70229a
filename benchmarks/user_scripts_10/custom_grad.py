import numpy as np
import warp as wp


@wp.func
def safe_sqrt(x: float):
    return wp.sqrt(wp.max(x, 0.0))


@wp.func_grad(safe_sqrt)
def adj_safe_sqrt(x: float, adj_ret: float):
    if x > 1.0e-6:
        wp.adjoint[x] += adj_ret * 0.5 / wp.sqrt(x)


@wp.kernel
def sqrt_loss(x: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, safe_sqrt(x[i]))


@wp.func
def clip_grad_identity(x: float):
    return x


@wp.func_grad(clip_grad_identity)
def adj_clip_grad_identity(x: float, adj_ret: float):
    wp.adjoint[x] += wp.clamp(adj_ret, -1.0, 1.0)


@wp.kernel
def clipped_square(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    v = clip_grad_identity(x[i])
    y[i] = 10.0 * v * v


x = wp.array(np.array([0.0, 1.0, 4.0], dtype=np.float32), requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
y = wp.zeros(3, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(sqrt_loss, dim=3, inputs=[x, loss])
    wp.launch(clipped_square, dim=3, inputs=[x, y])
tape.backward(loss)
print(x.grad.numpy())
