import warp as wp


class Smoother:
    def __init__(self, radius: int, weight: float):
        self.radius = radius
        self.weight = weight
        R = radius
        W = weight

        @wp.kernel
        def box_blur(src: wp.array(dtype=float), dst: wp.array(dtype=float)):
            i = wp.tid()
            n = src.shape[0]
            acc = float(0.0)
            for k in range(-R, R + 1):
                j = wp.clamp(i + k, 0, n - 1)
                acc += src[j]
            dst[i] = W * acc / float(2 * R + 1)

        self.kernel = box_blur

    def __call__(self, src, dst):
        wp.launch(self.kernel, dim=src.shape[0], inputs=[src, dst], device=src.device)


src = wp.array([float(i) for i in range(20)], dtype=float, device="cpu")
dst = wp.zeros_like(src)
for r, w in [(1, 1.0), (2, 0.5)]:
    Smoother(r, w)(src, dst)
    print(r, dst.numpy()[:4])
