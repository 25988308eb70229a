import warp as wp
import warp.fem as fem
from warp.sparse import bsr_mv, bsr_zeros


@fem.integrand
def mass_form(s: fem.Sample, u: fem.Field, v: fem.Field):
    return u(s) * v(s)


@wp.kernel
def set_dirichlet(values: wp.array(dtype=float), nodes: wp.array(dtype=int), value: float):
    i = wp.tid()
    values[nodes[i]] = value


@wp.kernel
def jacobi_precond(diag: wp.array(dtype=float), r: wp.array(dtype=float), z: wp.array(dtype=float)):
    i = wp.tid()
    d = diag[i]
    if d != 0.0:
        z[i] = r[i] / d
    else:
        z[i] = r[i]


def solve(res=16):
    geo = fem.Grid2D(res=wp.vec2i(res))
    space = fem.make_polynomial_space(geo, degree=1)
    u = fem.make_trial(space)
    v = fem.make_test(space)
    M = fem.integrate(mass_form, fields={"u": u, "v": v})
    x = wp.ones(M.shape[1], dtype=float)
    y = wp.zeros(M.shape[0], dtype=float)
    bsr_mv(M, x, y)
    return y


if __name__ == "__main__":
    print(solve())
