import warp as wp

CONFIG = {
    "solver": {"omega": 0.8, "iters": 3},
    "output": {"every": 2},
}


def make_jacobi(omega: float):
    @wp.kernel
    def jacobi_deep(x: wp.array(dtype=float), b: wp.array(dtype=float), y: wp.array(dtype=float)):
        i = wp.tid()
        n = x.shape[0]
        left = x[wp.max(i - 1, 0)]
        right = x[wp.min(i + 1, n - 1)]
        y[i] = (1.0 - omega) * x[i] + omega * 0.5 * (left + right + b[i])

    return jacobi_deep


def make_steps(steps: int):
    @wp.kernel
    def steps_deep(x: wp.array(dtype=float)):
        i = wp.tid()
        for _ in range(steps):
            x[i] = x[i] + 1.0

    return steps_deep


def build_kernels(solver_cfg):
    return make_jacobi(solver_cfg["omega"])


def simulate(cfg, steps=2):
    relax = build_kernels(cfg["solver"])
    bump = make_steps(steps)
    x = wp.zeros(8, dtype=float)
    b = wp.ones(8, dtype=float)
    y = wp.zeros(8, dtype=float)
    for _ in range(cfg["solver"]["iters"]):
        wp.launch(relax, dim=8, inputs=[x, b, y])
        x, y = y, x
    wp.launch(bump, dim=8, inputs=[x])
    return x


def main():
    out = simulate(CONFIG, steps=3)
    print(out.numpy())


if __name__ == "__main__":
    main()
