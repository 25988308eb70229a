import numpy as np
import warp as wp


@wp.kernel
def volume_paint(vol: wp.uint64, value: float):
    i, j, k = wp.tid()
    wp.volume_store(vol, i, j, k, value * float(i + j + k))


@wp.kernel
def volume_grad_generic(vol: wp.uint64, pts: wp.array(dtype=wp.vec3), grads: wp.array(dtype=wp.vec3), vals: wp.array(dtype=float)):
    t = wp.tid()
    uvw = wp.volume_world_to_index(vol, pts[t])
    g = wp.vec3()
    vals[t] = wp.volume_sample_grad(vol, uvw, wp.Volume.LINEAR, g, dtype=float)
    grads[t] = wp.volume_index_to_world_dir(vol, g)


def main():
    data = np.zeros((8, 8, 8), dtype=np.float32)
    vol = wp.Volume.load_from_numpy(data, bg_value=0.0, device="cpu")
    wp.launch(volume_paint, dim=(8, 8, 8), inputs=[vol.id, 0.5], device="cpu")
    pts = wp.array([[3.5, 3.5, 3.5], [1.0, 2.0, 3.0]], dtype=wp.vec3, device="cpu")
    grads = wp.zeros(2, dtype=wp.vec3, device="cpu")
    vals = wp.zeros(2, dtype=float, device="cpu")
    wp.launch(volume_grad_generic, dim=2, inputs=[vol.id, pts, grads, vals], device="cpu")
    print(vals.numpy(), grads.numpy())


if __name__ == "__main__":
    main()
