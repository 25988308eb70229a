# Jacobi iterations for Laplace's equation, forward and with a source term
import warp as wp

wp.config.quiet = True


def make_jacobi_pair(omega: float):
    """Returns (relax, residual) kernels for a given relaxation factor."""

    @wp.kernel
    def relax(u: wp.array2d(dtype=float), u_new: wp.array2d(dtype=float)):
        i, j = wp.tid()
        nx = u.shape[0]
        ny = u.shape[1]
        if i == 0 or j == 0 or i == nx - 1 or j == ny - 1:
            return
        avg = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])
        u_new[i, j] = (1.0 - omega) * u[i, j] + omega * avg

    @wp.kernel
    def residual(u: wp.array2d(dtype=float), r: wp.array(dtype=float)):
        i, j = wp.tid()
        nx = u.shape[0]
        ny = u.shape[1]
        if i == 0 or j == 0 or i == nx - 1 or j == ny - 1:
            return
        lap = u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - 4.0 * u[i, j]
        wp.atomic_add(r, 0, lap * lap)

    return relax, residual


class Solver:
    OMEGA = 1.5

    def __init__(self, n):
        self.n = n
        self.relax, self.residual = make_jacobi_pair(self.OMEGA)
        self.u = wp.zeros((n, n), dtype=float)
        self.tmp = wp.zeros((n, n), dtype=float)

    def solve(self, iters=100):
        for _ in range(iters):
            wp.launch(self.relax, dim=(self.n, self.n), inputs=[self.u, self.tmp])
            self.u, self.tmp = self.tmp, self.u


relax_gs, residual_gs = make_jacobi_pair(1.0)

if __name__ == "__main__":
    Solver(128).solve()
