# atomics beyond atomic_add: min/max/sub/exch/cas and the bitwise ones
import numpy as np
import warp as wp


@wp.kernel
def track_extrema(values: wp.array(dtype=float), lo: wp.array(dtype=float), hi: wp.array(dtype=float),
                  remaining: wp.array(dtype=int), last: wp.array(dtype=int)):
    i = wp.tid()
    v = values[i]
    wp.atomic_min(lo, 0, v)
    wp.atomic_max(hi, 0, v)
    wp.atomic_sub(remaining, 0, 1)
    wp.atomic_exch(last, 0, i)


@wp.kernel
def bit_flags(ids: wp.array(dtype=int), flags: wp.array(dtype=int), owner: wp.array(dtype=int)):
    i = wp.tid()
    bit = 1 << (ids[i] % 16)
    wp.atomic_or(flags, 0, bit)
    wp.atomic_and(flags, 1, ~bit)
    wp.atomic_xor(flags, 2, bit)
    # first writer wins
    wp.atomic_cas(owner, ids[i] % 4, -1, i)


n = 64
vals = wp.array(np.random.default_rng(0).standard_normal(n).astype(np.float32))
lo = wp.array([1e9], dtype=float)
hi = wp.array([-1e9], dtype=float)
rem = wp.array([n], dtype=int)
last = wp.zeros(1, dtype=int)
wp.launch(track_extrema, dim=n, inputs=[vals, lo, hi, rem, last])
ids = wp.array(np.arange(n, dtype=np.int32))
flags = wp.array([0, -1, 0], dtype=int)
owner = wp.full(4, -1, dtype=int)
wp.launch(bit_flags, dim=n, inputs=[ids, flags, owner])
print(lo.numpy(), hi.numpy(), rem.numpy(), flags.numpy(), owner.numpy())
