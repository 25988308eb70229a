import numpy as np
import warp as wp

wp.set_device("cpu")


@wp.kernel
def sample_velocity(vol: wp.uint64, pts: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    uvw = wp.volume_world_to_index(vol, pts[i])
    out[i] = wp.volume_sample_v(vol, uvw, wp.Volume.LINEAR)


@wp.kernel
def voxel_values(vol: wp.uint64, out: wp.array3d(dtype=float)):
    i, j, k = wp.tid()
    out[i, j, k] = wp.volume_lookup_f(vol, i, j, k) + wp.volume_sample(vol, wp.vec3(float(i), float(j), float(k)), wp.Volume.CLOSEST, dtype=float)


n = 4
field = np.zeros((n, n, n, 3), dtype=np.float32)
field[..., 0] = 1.0
vvol = wp.Volume.load_from_numpy(field, bg_value=(0.0, 0.0, 0.0))
pts = wp.array(np.full((3, 3), 1.5, dtype=np.float32), dtype=wp.vec3)
out = wp.zeros(3, dtype=wp.vec3)
wp.launch(sample_velocity, dim=3, inputs=[vvol.id, pts, out])
svol = wp.Volume.load_from_numpy(np.arange(n**3, dtype=np.float32).reshape(n, n, n), bg_value=0.0)
vals = wp.zeros((n, n, n), dtype=float)
wp.launch(voxel_values, dim=(n, n, n), inputs=[svol.id, vals])
print(out.numpy()[0], vals.numpy()[1, 1, 1])
