import numpy as np
import warp as wp


@wp.kernel
def predict_rt(w: wp.array(dtype=float), x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = w[0] * x[i] + w[1]


@wp.kernel
def l2_rt(y: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = y[i] - target[i]
    wp.atomic_add(loss, 0, d * d)


def main():
    x = wp.array(np.linspace(0.0, 1.0, 8), dtype=float)
    target = wp.array(2.0 * np.linspace(0.0, 1.0, 8) + 1.0, dtype=float)
    w = wp.zeros(2, dtype=float, requires_grad=True)
    y = wp.zeros(8, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    for _ in range(20):
        tape = wp.Tape()
        with tape:
            wp.launch(predict_rt, dim=8, inputs=[w, x], outputs=[y])
            wp.launch(l2_rt, dim=8, inputs=[y, target], outputs=[loss])
            # a diagnostic launch the tape must not replay backwards
            wp.launch(l2_rt, dim=8, inputs=[y, target], outputs=[wp.zeros(1, dtype=float)], record_tape=False)
        tape.backward(grads={loss: wp.ones(1, dtype=float)})
        w.assign(w.numpy() - 0.05 * w.grad.numpy())
        tape.zero()
        loss.zero_()
    print(w.numpy())


if __name__ == "__main__":
    main()
