import warp as wp

STEP = None
RESET = None


def make_step(dt):
    @wp.kernel
    def step_global(x: wp.array(dtype=float), v: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = x[i] + dt * v[i]

    return step_global


def make_reset(value):
    @wp.kernel
    def reset_global(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = value

    return reset_global


def setup(cfg):
    global STEP, RESET
    STEP = make_step(cfg["dt"])
    RESET = make_reset(cfg.get("reset", 0.0))


def main():
    setup({"dt": 0.02, "reset": 1.0})
    x = wp.zeros(4, dtype=float)
    v = wp.full(4, 1.0, dtype=float)
    wp.launch(RESET, dim=4, inputs=[x])
    wp.launch(STEP, dim=4, inputs=[x, v])
    print(x.numpy())


if __name__ == "__main__":
    main()
