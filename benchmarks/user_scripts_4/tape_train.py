"""Fit a tiny 1-hidden-layer MLP y = sin(x) with warp.optim.Adam."""
import numpy as np
import warp as wp
from warp.optim import Adam

HIDDEN = 8


@wp.struct
class MLP:
    w1: wp.array(dtype=float)
    b1: wp.array(dtype=float)
    w2: wp.array(dtype=float)


@wp.kernel
def forward(net: MLP, x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    acc = float(0.0)
    for h in range(HIDDEN):
        z = wp.tanh(net.w1[h] * x[i] + net.b1[h])
        acc += net.w2[h] * z
    y[i] = acc


@wp.kernel
def mse_loss(pred: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = pred[i] - target[i]
    wp.atomic_add(loss, 0, d * d / float(pred.shape[0]))


def train(steps=20, device="cpu"):
    rng = np.random.default_rng(0)
    net = MLP()
    net.w1 = wp.array(rng.normal(size=HIDDEN).astype(np.float32), device=device, requires_grad=True)
    net.b1 = wp.array(np.zeros(HIDDEN, dtype=np.float32), device=device, requires_grad=True)
    net.w2 = wp.array(rng.normal(size=HIDDEN).astype(np.float32) * 0.1, device=device, requires_grad=True)
    xs = np.linspace(-2, 2, 32).astype(np.float32)
    x = wp.array(xs, device=device)
    target = wp.array(np.sin(xs), device=device)
    pred = wp.zeros(32, dtype=float, device=device, requires_grad=True)
    loss = wp.zeros(1, dtype=float, device=device, requires_grad=True)
    opt = Adam([net.w1, net.b1, net.w2], lr=0.05)
    for it in range(steps):
        loss.zero_()
        tape = wp.Tape()
        with tape:
            wp.launch(forward, dim=32, inputs=[net, x], outputs=[pred], device=device)
            wp.launch(mse_loss, dim=32, inputs=[pred, target], outputs=[loss], device=device)
        tape.backward(loss=loss)
        opt.step([net.w1.grad, net.b1.grad, net.w2.grad])
        tape.zero()
        if it % 10 == 0:
            print(it, loss.numpy()[0])
    return loss.numpy()[0]


if __name__ == "__main__":
    print("final", train())
