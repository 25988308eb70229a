# my kernels with hand-written adjoint launches (no Tape)
import numpy as np
import warp as wp


@wp.kernel
def square_sum(x: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, x[i] * x[i])


@wp.kernel
def axpy_inplace(a: float, x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = a * x[i] + y[i]


x = wp.array(np.arange(5, dtype=np.float32), requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
wp.launch(square_sum, dim=5, inputs=[x, loss])
loss.grad.fill_(1.0)
wp.launch(square_sum, dim=5, inputs=[x, loss], adj_inputs=[x.grad, loss.grad], adjoint=True)
print("grad", x.grad.numpy())

y = wp.zeros(5, dtype=float)
wp.launch(axpy_inplace, dim=5, inputs=[-0.1, x.grad, y])
print(y.numpy())
