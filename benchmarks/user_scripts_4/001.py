import warp as w
import numpy as np

SCALE = 3
OFFSET = 0.5
w.config.mode = "debug"


@w.kernel
def scale_offset(a: w.array(dtype=w.float32)):
    i = w.tid()
    a[i] = a[i] * float(SCALE) + OFFSET


@w.kernel
def checked_index(a: w.array(dtype=w.float32), idx: w.array(dtype=w.int32), out: w.array(dtype=w.float32)):
    i = w.tid()
    j = idx[i]
    assert j >= 0
    out[i] = a[j]


if __name__ == "__main__":
    w.config.verify_fp = True
    w.init()
    a = w.array(np.arange(5, dtype=np.float32), device="cpu")
    w.launch(scale_offset, dim=5, inputs=[a], device="cpu")
    idx = w.array([4, 3, 2, 1, 0], dtype=w.int32, device="cpu")
    out = w.zeros(5, dtype=w.float32, device="cpu")
    w.launch(checked_index, dim=5, inputs=[a, idx, out], device="cpu")
    print(out.numpy())
