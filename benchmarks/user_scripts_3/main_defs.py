import numpy as np
import warp as wp


def main():
    @wp.kernel
    def normalize_rows(m: wp.array2d(dtype=float)):
        i = wp.tid()
        s = float(0.0)
        for j in range(m.shape[1]):
            s += m[i, j] * m[i, j]
        s = wp.sqrt(s)
        for j in range(m.shape[1]):
            m[i, j] = m[i, j] / s

    m = wp.array(np.random.rand(4, 3).astype(np.float32), device="cpu")
    wp.launch(normalize_rows, dim=4, inputs=[m], device="cpu")
    print(np.linalg.norm(m.numpy(), axis=1))


if __name__ == "__main__":

    @wp.kernel
    def checkerboard(img: wp.array2d(dtype=float)):
        i, j = wp.tid()
        img[i, j] = float((i + j) % 2)

    img = wp.zeros((4, 4), dtype=float, device="cpu")
    wp.launch(checkerboard, dim=img.shape, inputs=[img], device="cpu")
    print(img.numpy().sum())
    main()
