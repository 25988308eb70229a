import warp as wp

CONFIG = {"solver": {"iters": 3}, "relax": {"omegas": [0.8, 1.2]}}


def make_jacobi(iters):
    @wp.kernel
    def jacobi_get(u: wp.array(dtype=float), f: wp.array(dtype=float)):
        i = wp.tid()
        n = u.shape[0]
        for _ in range(iters):
            u[i] = 0.5 * (u[wp.max(i - 1, 0)] + u[wp.min(i + 1, n - 1)] + f[i])

    return jacobi_get


def make_omega(omega):
    @wp.kernel
    def omega_next(u: wp.array(dtype=float), u_new: wp.array(dtype=float)):
        i = wp.tid()
        u[i] = (1.0 - omega) * u[i] + omega * u_new[i]

    return omega_next


def main(cfg=CONFIG):
    iters = cfg.get("solver", {}).get("iters", 4)
    damping = cfg.get("damping", {}).get("value", 0.0)
    omega = next(iter(cfg["relax"]["omegas"]))
    u = wp.zeros(6, dtype=float)
    f = wp.full(6, 0.1 + damping, dtype=float)
    wp.launch(make_jacobi(iters), dim=6, inputs=[u, f])
    wp.launch(make_omega(omega), dim=6, inputs=[u, f])
    print(u.numpy())


if __name__ == "__main__":
    main()
