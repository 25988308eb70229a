import numpy as np
import warp as wp

SEED = 42


@wp.kernel
def sample_directions(dirs: wp.array(dtype=wp.vec3), disk: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    state = wp.rand_init(SEED, i)
    dirs[i] = wp.sample_unit_hemisphere_surface(state)
    disk[i] = wp.sample_unit_disk(state)


@wp.kernel
def dice(rolls: wp.array(dtype=int), hist: wp.array(dtype=int)):
    i = wp.tid()
    rng = wp.rand_init(SEED + 1, i)
    r = wp.randi(rng, 1, 7)
    u = wp.randu(rng)
    rolls[i] = r + int(u % wp.uint32(1))
    wp.atomic_add(hist, r - 1, 1)


dirs = wp.zeros(64, dtype=wp.vec3)
disk = wp.zeros(64, dtype=wp.vec2)
wp.launch(sample_directions, dim=64, inputs=[dirs, disk])
rolls = wp.zeros(600, dtype=int)
hist = wp.zeros(6, dtype=int)
wp.launch(dice, dim=600, inputs=[rolls, hist])
print(dirs.numpy()[:, 2].min() >= 0, hist.numpy())
