"""Checking a hand-rolled loss with warp.autograd before training."""
import numpy as np
import warp as wp
import warp.autograd


@wp.kernel
def softplus_loss(x: wp.array(dtype=float), w: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    z = x[i] * w[0]
    wp.atomic_add(loss, 0, wp.log(1.0 + wp.exp(z)))


@wp.kernel
def rotate2d(angle: wp.array(dtype=float), p: wp.array(dtype=wp.vec2), out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    c = wp.cos(angle[i])
    s = wp.sin(angle[i])
    out[i] = wp.vec2(c * p[i][0] - s * p[i][1], s * p[i][0] + c * p[i][1])


x = wp.array(np.linspace(-1, 1, 8, dtype=np.float32), requires_grad=True)
w = wp.array([0.7], dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
ok = warp.autograd.gradcheck(softplus_loss, dim=8, inputs=[x, w], outputs=[loss], eps=1e-3, atol=1e-2, rtol=1e-2,
                             raise_exception=False, show_summary=False)

angle = wp.array([0.3], dtype=float, requires_grad=True)
p = wp.array([[1.0, 0.0]], dtype=wp.vec2, requires_grad=True)
out = wp.zeros(1, dtype=wp.vec2, requires_grad=True)
jac = wp.autograd.jacobian(rotate2d, dim=1, inputs=[angle, p], outputs=[out])
print(ok, {k: v.numpy().shape for k, v in jac.items()})
