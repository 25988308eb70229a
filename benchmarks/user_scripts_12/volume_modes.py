import numpy as np

import warp as wp


@wp.kernel
def sample_linear(volume: wp.uint64, pts: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    i = wp.tid()
    uvw = wp.volume_world_to_index(volume, pts[i])
    out[i] = wp.volume_sample(volume, uvw, wp.Volume.LINEAR, dtype=float)


def make_sampler(mode: int):
    @wp.kernel
    def sample_mode(volume: wp.uint64, pts: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
        i = wp.tid()
        uvw = wp.volume_world_to_index(volume, pts[i])
        out[i] = wp.volume_sample_f(volume, uvw, mode)

    return sample_mode


if __name__ == "__main__":
    data = np.fromfunction(lambda i, j, k: i + j + k, (8, 8, 8), dtype=np.float32)
    vol = wp.Volume.load_from_numpy(data, bg_value=0.0)
    pts = wp.array([[1.5, 2.5, 3.5], [4.0, 4.0, 4.0]], dtype=wp.vec3)
    out = wp.zeros(2, dtype=float)
    wp.launch(sample_linear, dim=2, inputs=[vol.id, pts, out])
    wp.launch(make_sampler(wp.Volume.CLOSEST), dim=2, inputs=[vol.id, pts, out])
    print(out.numpy())
