import warp as wp

SEED = 42


@wp.kernel
def walk(pos: wp.array(dtype=wp.vec2), steps: int, seed: int):
    i = wp.tid()
    state = wp.rand_init(seed, i)
    p = pos[i]
    for _ in range(steps):
        ang = wp.randf(state) * 6.2831853
        p = p + wp.vec2(wp.cos(ang), wp.sin(ang))
    pos[i] = p


@wp.kernel
def gaussian_noise(out: wp.array(dtype=float), sigma: float, seed: int):
    i = wp.tid()
    s = wp.rand_init(seed, i)
    out[i] = sigma * wp.randn(s)


pos = wp.zeros(16, dtype=wp.vec2, device="cpu")
wp.launch(walk, dim=16, inputs=[pos, 20, SEED], device="cpu")
noise = wp.zeros(16, dtype=float, device="cpu")
wp.launch(gaussian_noise, dim=16, inputs=[noise, 0.1, SEED], device="cpu")
print(pos.numpy()[0], noise.numpy().std())
