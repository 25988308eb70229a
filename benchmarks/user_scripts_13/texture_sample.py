import numpy as np
import warp as wp


@wp.kernel
def sample_image(tex: wp.Texture2D, uv: wp.array(dtype=wp.vec2f), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = wp.texture_sample(tex, uv[i], dtype=float)


@wp.kernel
def sample_curve(tex: wp.Texture1D, out: wp.array(dtype=wp.vec4f)):
    i = wp.tid()
    n = out.shape[0]
    u = (float(i) + 0.5) / float(n)
    out[i] = wp.texture_sample(tex, u, dtype=wp.vec4f)


def main():
    with wp.ScopedDevice("cpu"):
        img = np.linspace(0.0, 1.0, 64, dtype=np.float32).reshape(8, 8)
        tex2 = wp.Texture2D(img)
        uv = wp.array([[0.25, 0.25], [0.75, 0.5]], dtype=wp.vec2f)
        out = wp.zeros(2, dtype=float)
        wp.launch(sample_image, dim=2, inputs=[tex2, uv, out])

        ramp = np.linspace(0.0, 1.0, 16 * 4, dtype=np.float32).reshape(16, 4)
        tex1 = wp.Texture1D(ramp)
        colors = wp.zeros(4, dtype=wp.vec4f)
        wp.launch(sample_curve, dim=4, inputs=[tex1, colors])
        print(out.numpy(), colors.numpy()[0])


if __name__ == "__main__":
    main()
