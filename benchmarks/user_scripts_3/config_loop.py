import warp as wp

CONFIGS = {
    "soft": {"k": 10.0, "iters": 2},
    "medium": {"k": 100.0, "iters": 4},
    "stiff": {"k": 1000.0, "iters": 8},
}

KERNELS = {}
for name, cfg in CONFIGS.items():
    K = cfg["k"]
    ITERS = cfg["iters"]

    def _make(K=K, ITERS=ITERS):
        @wp.kernel
        def spring_relax(x: wp.array(dtype=float), rest: float):
            i = wp.tid()
            v = x[i]
            for _ in range(ITERS):
                v = v - 0.001 * K * (v - rest)
            x[i] = v

        return spring_relax

    KERNELS[name] = _make()

for name, k in KERNELS.items():
    x = wp.full(8, 2.0, dtype=float, device="cpu")
    wp.launch(k, dim=8, inputs=[x, 1.0], device="cpu")
    print(name, x.numpy()[0])
