import numpy as np
import warp as wp

wp.set_device("cpu")


@wp.kernel
def predict(xs: wp.array(dtype=float), params: wp.array(dtype=float), ys: wp.array(dtype=float)):
    i = wp.tid()
    ys[i] = params[0] * xs[i] + params[1]


@wp.kernel
def mse(ys: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = ys[i] - target[i]
    wp.atomic_add(loss, 0, d * d / float(ys.shape[0]))


@wp.kernel
def gd_update(params: wp.array(dtype=float), grad: wp.array(dtype=float), lr: float):
    i = wp.tid()
    params[i] = params[i] - lr * grad[i]


xs_np = np.linspace(0, 1, 32).astype(np.float32)
xs = wp.array(xs_np)
target = wp.array(3.0 * xs_np + 0.5)
params = wp.zeros(2, dtype=float, requires_grad=True)
ys = wp.zeros(32, dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)

for it in range(50):
    tape = wp.Tape()
    loss.zero_()
    with tape:
        wp.launch(predict, dim=32, inputs=[xs, params, ys])
        wp.launch(mse, dim=32, inputs=[ys, target, loss])
    tape.backward(loss)
    wp.launch(gd_update, dim=2, inputs=[params, params.grad, 0.5])
    tape.zero()
print("params", params.numpy(), "loss", loss.numpy()[0])
