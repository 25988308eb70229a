import numpy as np
import warp as wp

MASK40 = (1 << 40) - 1
GOLDEN = 0x9E3779B9


@wp.kernel
def mask_low40(a: wp.array(dtype=wp.int64)):
    i = wp.tid()
    a[i] = a[i] & wp.int64(MASK40)


@wp.kernel
def golden_hash(keys: wp.array(dtype=wp.uint32), out: wp.array(dtype=wp.uint32)):
    i = wp.tid()
    h = keys[i] * wp.uint32(GOLDEN)
    h = h ^ (h >> wp.uint32(16))
    out[i] = h


if __name__ == "__main__":
    a = wp.array(np.array([2**45 + 7, 12345], dtype=np.int64), dtype=wp.int64)
    wp.launch(mask_low40, dim=2, inputs=[a])
    keys = wp.array(np.arange(4, dtype=np.uint32), dtype=wp.uint32)
    out = wp.zeros(4, dtype=wp.uint32)
    wp.launch(golden_hash, dim=4, inputs=[keys, out])
    print(a.numpy(), out.numpy())
