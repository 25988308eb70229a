# trying out autodiff with wp.Tape
import numpy as np
import warp as wp

wp.init()


@wp.func
def safe_sqrt(x: float):
    return wp.sqrt(wp.max(x, 0.0))


@wp.func_grad(safe_sqrt)
def adj_safe_sqrt(x: float, adj_ret: float):
    if x > 0.0:
        wp.adjoint[x] += adj_ret / (2.0 * wp.sqrt(x))


@wp.func
def record_add(counter: wp.array(dtype=int), x: float):
    wp.atomic_add(counter, 0, 1)
    return x + 1.0


@wp.func_replay(record_add)
def replay_record_add(counter: wp.array(dtype=int), x: float):
    return x + 1.0


@wp.kernel
def loss_kernel(x: wp.array(dtype=float), counter: wp.array(dtype=int), loss: wp.array(dtype=float)):
    i = wp.tid()
    y = safe_sqrt(x[i])
    z = record_add(counter, y)
    wp.atomic_add(loss, 0, z * z)


@wp.kernel
def sgd_step(x: wp.array(dtype=float), grad: wp.array(dtype=float), lr: float):
    i = wp.tid()
    x[i] = x[i] - lr * grad[i]


@wp.kernel
def rosenbrock(p: wp.array(dtype=wp.vec2), out: wp.array(dtype=float)):
    i = wp.tid()
    a = 1.0
    b = 100.0
    x = p[i][0]
    y = p[i][1]
    wp.atomic_add(out, 0, (a - x) * (a - x) + b * (y - x * x) * (y - x * x))


def main():
    x = wp.array(np.linspace(0.1, 2.0, 64).astype(np.float32), requires_grad=True)
    counter = wp.zeros(1, dtype=int)
    for it in range(10):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(loss_kernel, dim=64, inputs=[x, counter, loss])
        tape.backward(loss)
        wp.launch(sgd_step, dim=64, inputs=[x, x.grad, 0.01])
        tape.zero()
        print(it, loss.numpy()[0])

    p = wp.array(np.zeros((1, 2), dtype=np.float32), dtype=wp.vec2, requires_grad=True)
    out = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(rosenbrock, dim=1, inputs=[p, out])
    tape.backward(out)
    print(p.grad)


if __name__ == "__main__":
    main()
