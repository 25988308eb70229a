import torch
import warp as wp

wp.init()


@wp.kernel
def square_loss(pred: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = pred[i] - target[i]
    wp.atomic_add(loss, 0, d * d)


@wp.kernel
def bias_add(x: wp.array2d(dtype=float), b: wp.array(dtype=float)):
    i, j = wp.tid()
    x[i, j] = x[i, j] + b[j]


class WarpLoss(torch.autograd.Function):
    @staticmethod
    def forward(ctx, pred, target):
        ctx.pred = wp.from_torch(pred, requires_grad=True)
        ctx.target = wp.from_torch(target)
        ctx.loss = wp.zeros(1, dtype=float, requires_grad=True)
        ctx.tape = wp.Tape()
        with ctx.tape:
            wp.launch(square_loss, dim=len(pred), inputs=[ctx.pred, ctx.target, ctx.loss])
        return wp.to_torch(ctx.loss)

    @staticmethod
    def backward(ctx, adj_loss):
        ctx.loss.grad = wp.from_torch(adj_loss)
        ctx.tape.backward()
        return wp.to_torch(ctx.pred.grad), None


if __name__ == "__main__":
    p = torch.rand(16, requires_grad=True)
    t = torch.rand(16)
    l = WarpLoss.apply(p, t)
    l.backward()
    print(p.grad)
