import sys

import warp as wp

N = int(sys.argv[1]) if len(sys.argv) > 1 else 128
MODE = sys.argv[2] if len(sys.argv) > 2 else "sin"


@wp.kernel
def wave_sin(out: wp.array(dtype=float), k: float):
    i = wp.tid()
    out[i] = wp.sin(k * float(i))


@wp.kernel
def wave_saw(out: wp.array(dtype=float), k: float):
    i = wp.tid()
    t = k * float(i)
    out[i] = t - wp.floor(t)


kernel = wave_sin if MODE == "sin" else wave_saw
out = wp.zeros(N, dtype=float, device="cpu")
wp.launch(kernel, dim=N, inputs=[out, 0.1], device="cpu")
print(MODE, out.numpy()[:3])
