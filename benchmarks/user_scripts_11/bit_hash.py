import warp as wp

SEED = 0x9E3779B9


@wp.func
def pcg(x: wp.uint32) -> wp.uint32:
    state = x * wp.uint32(747796405) + wp.uint32(2891336453)
    word = ((state >> ((state >> wp.uint32(28)) + wp.uint32(4))) ^ state) * wp.uint32(277803737)
    return (word >> wp.uint32(22)) ^ word


@wp.kernel
def hash_cells(out: wp.array(dtype=wp.uint32)):
    i = wp.tid()
    out[i] = pcg(wp.uint32(i) ^ wp.uint32(SEED)) & wp.uint32(0xFFFF)


@wp.kernel
def popcount_like(a: wp.array(dtype=wp.uint32), out: wp.array(dtype=int)):
    i = wp.tid()
    x = a[i]
    c = int(0)
    for _b in range(32):
        c += int(x & wp.uint32(1))
        x = x >> wp.uint32(1)
    out[i] = c


h = wp.zeros(8, dtype=wp.uint32)
wp.launch(hash_cells, dim=8, inputs=[h])
c = wp.zeros(8, dtype=int)
wp.launch(popcount_like, dim=8, inputs=[h, c])
print(c.numpy())
