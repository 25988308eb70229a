import warp as wp


def make_loss(weight, grad=True):
    @wp.kernel(enable_backward=grad)
    def loss_opt(x: wp.array(dtype=float), loss: wp.array(dtype=float)):
        i = wp.tid()
        wp.atomic_add(loss, 0, weight * x[i] * x[i])

    return loss_opt


def make_norm(p, unique=True):
    @wp.kernel(module="unique" if unique else None)
    def norm_unique(a: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
        i = wp.tid()
        v = a[i]
        out[i] = wp.pow(wp.pow(wp.abs(v[0]), p) + wp.pow(wp.abs(v[1]), p) + wp.pow(wp.abs(v[2]), p), 1.0 / p)

    return norm_unique


if __name__ == "__main__":
    x = wp.full(4, 2.0, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(make_loss(0.5), dim=4, inputs=[x, loss])
    tape.backward(loss)
    print(loss.numpy(), x.grad.numpy())
    wp.launch(make_loss(2.0, grad=False), dim=4, inputs=[x, loss])
    a = wp.full(2, wp.vec3(1.0, 2.0, 2.0), dtype=wp.vec3)
    out = wp.zeros(2, dtype=float)
    wp.launch(make_norm(3.0), dim=2, inputs=[a, out])
    print(out.numpy())
