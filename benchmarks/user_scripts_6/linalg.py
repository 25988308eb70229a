# small dense linear algebra in kernels: svd3, eig3, qr3, inverse, determinant, outer, diag
import numpy as np
import warp as wp


@wp.kernel
def polar_decomp(F: wp.array(dtype=wp.mat33), R: wp.array(dtype=wp.mat33), J: wp.array(dtype=float)):
    i = wp.tid()
    U = wp.mat33()
    s = wp.vec3()
    V = wp.mat33()
    wp.svd3(F[i], U, s, V)
    R[i] = U * wp.transpose(V)
    J[i] = wp.determinant(F[i])


@wp.kernel
def principal_axes(pts: wp.array(dtype=wp.vec3), axes: wp.array(dtype=wp.mat33), lam: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    p = pts[i]
    C = wp.outer(p, p) + wp.diag(wp.vec3(1.0e-3, 1.0e-3, 1.0e-3))
    Q = wp.mat33()
    d = wp.vec3()
    wp.eig3(C, Q, d)
    axes[i] = Q
    lam[i] = d
    Qr = wp.mat33()
    Rr = wp.mat33()
    wp.qr3(wp.inverse(C), Qr, Rr)
    lam[i] = lam[i] + wp.get_diag(Rr) * 0.0


n = 8
F = wp.array(np.tile(np.eye(3, dtype=np.float32) * 1.1, (n, 1, 1)), dtype=wp.mat33)
R = wp.zeros(n, dtype=wp.mat33)
J = wp.zeros(n, dtype=float)
wp.launch(polar_decomp, dim=n, inputs=[F, R, J])
pts = wp.array(np.random.default_rng(2).random((n, 3)).astype(np.float32), dtype=wp.vec3)
axes = wp.zeros(n, dtype=wp.mat33)
lam = wp.zeros(n, dtype=wp.vec3)
wp.launch(principal_axes, dim=n, inputs=[pts, axes, lam])
print(J.numpy()[0], lam.numpy()[0])
