import warp as wp

TABLE = {"water_visc": 1.0e-3, "oil_visc": 0.1}


class Gains:
    low_gain = 0.5
    high_gain = 4.0


def make_visc(nu: float):
    @wp.kernel
    def visc_fkey(u: wp.array(dtype=float), out: wp.array(dtype=float)):
        i = wp.tid()
        n = u.shape[0]
        if i > 0 and i < n - 1:
            out[i] = u[i] + nu * (u[i - 1] - 2.0 * u[i] + u[i + 1])

    return visc_fkey


def make_gain(g: float):
    @wp.kernel
    def gain_getattr(u: wp.array(dtype=float)):
        i = wp.tid()
        u[i] = u[i] * g

    return gain_getattr


def main():
    u = wp.ones(6, dtype=float)
    out = wp.zeros(6, dtype=float)
    for fluid in ("water", "oil"):
        k = make_visc(TABLE[f"{fluid}_visc"])
        wp.launch(k, dim=6, inputs=[u, out])
    for level in ("low", "high"):
        wp.launch(make_gain(getattr(Gains, f"{level}_gain")), dim=6, inputs=[u])
    print(u.numpy(), out.numpy())


if __name__ == "__main__":
    main()
