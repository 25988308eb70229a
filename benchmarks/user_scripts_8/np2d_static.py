import numpy as np
import warp as wp

# 3x3 binomial blur, weights baked in at compile time
BLUR = np.array([[1.0, 2.0, 1.0], [2.0, 4.0, 2.0], [1.0, 2.0, 1.0]]) / 16.0
OFFSETS = np.array([-2, 0, 3])


@wp.kernel
def blur3x3(img: wp.array2d(dtype=float), out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    h = img.shape[0]
    w = img.shape[1]
    acc = float(0.0)
    for di in range(wp.static(3)):
        for dj in range(wp.static(3)):
            ii = wp.clamp(i + di - 1, 0, h - 1)
            jj = wp.clamp(j + dj - 1, 0, w - 1)
            acc += wp.static(float(BLUR[di, dj])) * img[ii, jj]
    out[i, j] = acc


@wp.kernel
def shift_sum(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    n = a.shape[0]
    s = float(0.0)
    for k in range(wp.static(len(OFFSETS))):
        s += a[(i + wp.static(int(OFFSETS[k])) + n) % n]
    out[i] = s


img = wp.array(np.random.default_rng(2).random((16, 16)).astype(np.float32))
out = wp.zeros_like(img)
wp.launch(blur3x3, dim=(16, 16), inputs=[img, out])
a = wp.array(np.arange(10, dtype=np.float32))
s = wp.zeros(10, dtype=float)
wp.launch(shift_sum, dim=10, inputs=[a, s])
print(out.numpy()[0, :3], s.numpy())
