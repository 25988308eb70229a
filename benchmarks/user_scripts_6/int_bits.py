# integer work: uint32 hashing, morton codes with shifts and masks, int64 accumulation
import numpy as np
import warp as wp


@wp.func
def pcg_hash(x: wp.uint32):
    state = x * wp.uint32(747796405) + wp.uint32(2891336453)
    word = ((state >> ((state >> wp.uint32(28)) + wp.uint32(4))) ^ state) * wp.uint32(277803737)
    return (word >> wp.uint32(22)) ^ word


@wp.func
def spread_bits(v: wp.uint32):
    v = (v * wp.uint32(0x00010001)) & wp.uint32(0xFF0000FF)
    v = (v * wp.uint32(0x00000101)) & wp.uint32(0x0F00F00F)
    v = (v * wp.uint32(0x00000011)) & wp.uint32(0xC30C30C3)
    v = (v * wp.uint32(0x00000005)) & wp.uint32(0x49249249)
    return v


@wp.kernel
def hash_ids(ids: wp.array(dtype=wp.uint32), out: wp.array(dtype=wp.uint32), total: wp.array(dtype=wp.int64)):
    i = wp.tid()
    h = pcg_hash(ids[i])
    out[i] = h
    wp.atomic_add(total, 0, wp.int64(h % wp.uint32(1000)))


@wp.kernel
def morton_codes(pts: wp.array(dtype=wp.vec3), codes: wp.array(dtype=wp.uint32)):
    i = wp.tid()
    p = pts[i]
    x = wp.uint32(wp.clamp(p[0] * 1023.0, 0.0, 1023.0))
    y = wp.uint32(wp.clamp(p[1] * 1023.0, 0.0, 1023.0))
    z = wp.uint32(wp.clamp(p[2] * 1023.0, 0.0, 1023.0))
    codes[i] = (spread_bits(x) << wp.uint32(2)) | (spread_bits(y) << wp.uint32(1)) | spread_bits(z)


ids = wp.array(np.arange(16, dtype=np.uint32), dtype=wp.uint32)
out = wp.zeros(16, dtype=wp.uint32)
total = wp.zeros(1, dtype=wp.int64)
wp.launch(hash_ids, dim=16, inputs=[ids, out, total])
pts = wp.array(np.random.default_rng(3).random((16, 3)).astype(np.float32), dtype=wp.vec3)
codes = wp.zeros(16, dtype=wp.uint32)
wp.launch(morton_codes, dim=16, inputs=[pts, codes])
print(total.numpy(), codes.numpy()[:4])
