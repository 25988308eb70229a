import warp as wp
from warp import func, kernel


@func
def hash_to_unit(seed: int, i: int):
    state = wp.rand_init(seed, i)
    return wp.randf(state)


@kernel
def noise_field(field: wp.array2d(dtype=float), seed: int, freq: float):
    i, j = wp.tid()
    state = wp.rand_init(seed)
    p = wp.vec2(float(i), float(j)) * freq
    field[i, j] = wp.noise(state, p)


@kernel
def jitter(pts: wp.array(dtype=wp.vec3), seed: int, amount: float):
    i = wp.tid()
    state = wp.rand_init(seed, i)
    pts[i] = pts[i] + wp.sample_unit_sphere_surface(state) * amount * hash_to_unit(seed, i)


@wp.kernel
def poisson_counts(lam: wp.array(dtype=float), out: wp.array(dtype=wp.uint32), seed: int):
    i = wp.tid()
    state = wp.rand_init(seed, i)
    out[i] = wp.poisson(state, lam[i])
