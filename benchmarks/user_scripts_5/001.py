# image blending toy: the helpers live at the bottom of the file, after the kernels
import numpy as np
import warp as wp

wp.config.quiet = True

W, H = 32, 24


@wp.kernel
def blend_images(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float), alpha: float, out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    out[i, j] = mix(a[i, j], b[i, j], alpha)


@wp.kernel
def apply_curve(img: wp.array2d(dtype=float), gamma: float):
    i, j = wp.tid()
    img[i, j] = curve(saturate(img[i, j]), gamma)


@wp.func
def mix(x: float, y: float, t: float) -> float:
    return x * (1.0 - t) + y * t


@wp.func
def saturate(x: float) -> float:
    return wp.clamp(x, 0.0, 1.0)


@wp.func
def curve(x: float, g: float) -> float:
    return wp.pow(x, g)


if __name__ == "__main__":
    rng = np.random.default_rng(1)
    a = wp.array(rng.random((H, W), dtype=np.float32))
    b = wp.array(rng.random((H, W), dtype=np.float32))
    out = wp.zeros((H, W), dtype=float)
    wp.launch(blend_images, dim=(H, W), inputs=[a, b, 0.25], outputs=[out])
    wp.launch(apply_curve, dim=out.shape, inputs=[out, 2.2])
    print("mean", out.numpy().mean())
