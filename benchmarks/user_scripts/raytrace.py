import numpy as np
import warp as wp

WIDTH = 320
HEIGHT = 240


@wp.struct
class Camera:
    origin: wp.vec3
    fov: float


@wp.kernel
def draw(cam: Camera, img: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    x = tid % WIDTH
    y = tid // WIDTH
    sx = 2.0 * float(x) / float(WIDTH) - 1.0
    sy = 2.0 * float(y) / float(HEIGHT) - 1.0
    d = wp.normalize(wp.vec3(sx * cam.fov, sy * cam.fov, -1.0))
    img[tid] = wp.vec3(0.5 * (d[0] + 1.0), 0.5 * (d[1] + 1.0), 1.0)


def blur(img, radius):
    @wp.kernel
    def box_blur(src: wp.array(dtype=wp.vec3), dst: wp.array(dtype=wp.vec3)):
        tid = wp.tid()
        x = tid % WIDTH
        acc = wp.vec3()
        count = int(0)
        for k in range(-radius, radius + 1):
            xx = x + k
            if xx >= 0 and xx < WIDTH:
                acc += src[tid + k]
                count += 1
        dst[tid] = acc / float(count)

    out = wp.empty_like(img)
    wp.launch(box_blur, dim=WIDTH * HEIGHT, inputs=[img, out])
    return out


if __name__ == "__main__":
    cam = Camera()
    cam.origin = wp.vec3(0.0, 0.0, 0.0)
    cam.fov = 0.8
    img = wp.zeros(WIDTH * HEIGHT, dtype=wp.vec3)
    wp.launch(draw, dim=WIDTH * HEIGHT, inputs=[cam, img])
    img = blur(img, 2)
    np.save("image.npy", img.numpy())
