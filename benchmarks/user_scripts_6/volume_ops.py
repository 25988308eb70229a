# wp.Volume from numpy: lookups, gradients, index <-> world
import numpy as np
import warp as wp


@wp.kernel
def sample_with_grad(vol: wp.uint64, pts: wp.array(dtype=wp.vec3), vals: wp.array(dtype=float),
                     grads: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    uvw = wp.volume_world_to_index(vol, pts[i])
    g = wp.vec3()
    vals[i] = wp.volume_sample_grad_f(vol, uvw, wp.Volume.LINEAR, g)
    grads[i] = g


@wp.kernel
def voxel_centers(vol: wp.uint64, out: wp.array(dtype=wp.vec3), vals: wp.array(dtype=float)):
    i, j, k = wp.tid()
    idx = i * 16 + j * 4 + k
    out[idx] = wp.volume_index_to_world(vol, wp.vec3(float(i), float(j), float(k)))
    vals[idx] = wp.volume_lookup_f(vol, i, j, k)


x = np.linspace(-1, 1, 8, dtype=np.float32)
sdf = np.sqrt(x[:, None, None] ** 2 + x[None, :, None] ** 2 + x[None, None, :] ** 2) - 0.5
vol = wp.Volume.load_from_numpy(sdf, min_world=(-1.0, -1.0, -1.0), voxel_size=2.0 / 7.0, bg_value=1.0,
                                device="cpu")
pts = wp.array([wp.vec3(0.1, 0.2, 0.0), wp.vec3(0.5, 0.5, 0.5)], dtype=wp.vec3, device="cpu")
vals = wp.zeros(2, dtype=float, device="cpu")
grads = wp.zeros(2, dtype=wp.vec3, device="cpu")
wp.launch(sample_with_grad, dim=2, inputs=[vol.id, pts, vals, grads], device="cpu")
centers = wp.zeros(64, dtype=wp.vec3, device="cpu")
cv = wp.zeros(64, dtype=float, device="cpu")
wp.launch(voxel_centers, dim=(4, 4, 4), inputs=[vol.id, centers, cv], device="cpu")
print(vals.numpy(), grads.numpy()[0], centers.numpy()[5], cv.numpy()[:3])
