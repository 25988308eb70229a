import attrs
import pydantic

import warp as wp


class SolverSettings(pydantic.BaseModel):
    iterations: int = 4
    omega: float = 0.7


@attrs.frozen
class Material:
    density: float = 1000.0
    viscosity: float = 0.001


def make_jacobi(iterations, omega):
    @wp.kernel
    def jacobi_pyd(u: wp.array(dtype=float), b: wp.array(dtype=float)):
        i = wp.tid()
        n = u.shape[0]
        for _ in range(iterations):
            nb = 0.5 * (u[wp.max(i - 1, 0)] + u[wp.min(i + 1, n - 1)])
            u[i] = (1.0 - omega) * u[i] + omega * (nb + b[i])

    return jacobi_pyd


def make_stokes(mat: Material):
    nu = mat.viscosity / mat.density

    @wp.kernel
    def stokes_attrs(v: wp.array(dtype=float), r: wp.array(dtype=float)):
        i = wp.tid()
        v[i] = v[i] / (1.0 + nu / (r[i] * r[i]))

    return stokes_attrs


def main():
    solver = SolverSettings(omega=0.9)
    jacobi = make_jacobi(**solver.model_dump())
    water = Material()
    honey = attrs.evolve(water, viscosity=10.0, density=1400.0)
    stokes = make_stokes(honey)

    u = wp.zeros(8, dtype=float)
    b = wp.full(8, 0.1, dtype=float)
    wp.launch(jacobi, dim=8, inputs=[u, b])
    r = wp.full(8, 0.5, dtype=float)
    wp.launch(stokes, dim=8, inputs=[u, r])
    print(u.numpy())


if __name__ == "__main__":
    main()
