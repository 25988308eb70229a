import warp as wp
from helpers import soft_clip


@wp.kernel
def soft_clip_all(a: wp.array(dtype=float), k: float):
    i = wp.tid()
    a[i] = soft_clip(a[i], k)


a = wp.array([-10.0, 0.5, 10.0], dtype=float, device="cpu")
wp.launch(soft_clip_all, dim=3, inputs=[a, 2.0], device="cpu")
print(a.numpy())
