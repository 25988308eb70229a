import warp as wp

wp.set_device("cpu")


@wp.kernel
def perlin_image(seed: int, img: wp.array2d(dtype=float)):
    i, j = wp.tid()
    state = wp.rand_init(seed)
    p = wp.vec2(float(i) * 0.1, float(j) * 0.1)
    img[i, j] = wp.noise(state, p) + 0.5 * wp.pnoise(state, p, 4, 4)


@wp.kernel
def curl_advect(seed: int, pos: wp.array(dtype=wp.vec3), dt: float):
    i = wp.tid()
    state = wp.rand_init(seed)
    v = wp.curlnoise(state, wp.vec4(pos[i][0], pos[i][1], pos[i][2], 0.0), wp.uint32(2), 0.5, 2.0)
    pos[i] = pos[i] + dt * v


img = wp.zeros((8, 8), dtype=float)
wp.launch(perlin_image, dim=(8, 8), inputs=[7, img])
pos = wp.zeros(4, dtype=wp.vec3)
wp.launch(curl_advect, dim=4, inputs=[7, pos, 0.1])
print(img.numpy().mean(), pos.numpy()[0])
