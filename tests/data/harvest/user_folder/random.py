# Named as a standard module: still a script of its own.
import warp as wp


@wp.kernel
def uniform(a: wp.array(dtype=float), seed: int):
    state = wp.rand_init(seed, wp.tid())
    a[wp.tid()] = wp.randf(state)
