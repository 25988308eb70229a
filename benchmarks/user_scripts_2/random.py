# my random number kernels (yes I named the file random.py)
import warp as wp


@wp.kernel
def uniform_fill(out: wp.array(dtype=float), seed: int):
    tid = wp.tid()
    state = wp.rand_init(seed, tid)
    out[tid] = wp.randf(state)


@wp.kernel
def normal_fill(out: wp.array(dtype=float), seed: int, mu: float, sigma: float):
    tid = wp.tid()
    state = wp.rand_init(seed, tid)
    out[tid] = mu + sigma * wp.randn(state)
