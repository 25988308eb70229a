# wp.funcs returning tuples, tuple unpacking, ternaries, wp.where, a while loop with break/continue
import warp as wp


@wp.func
def split_sign(x: float):
    if x < 0.0:
        return -x, -1
    return x, 1


@wp.func
def min_max(a: float, b: float):
    return wp.min(a, b), wp.max(a, b)


@wp.kernel
def split_signs(x: wp.array(dtype=float), mag: wp.array(dtype=float), sign: wp.array(dtype=int)):
    i = wp.tid()
    m, s = split_sign(x[i])
    mag[i] = m
    sign[i] = s if m > 1.0e-6 else 0


@wp.kernel
def minmax_pairs(a: wp.array(dtype=float), lo: wp.array(dtype=float), hi: wp.array(dtype=float)):
    i = wp.tid()
    l, h = min_max(a[2 * i], a[2 * i + 1])
    lo[i] = wp.where(l > -100.0, l, -100.0)
    hi[i] = h
    k = int(0)
    while True:
        k += 1
        if k % 2 == 0:
            continue
        if k > 5:
            break
    hi[i] = hi[i] + float(k) * 0.0


x = wp.array([-2.0, 0.0, 3.0, -0.5], dtype=float)
mag = wp.zeros(4, dtype=float)
sign = wp.zeros(4, dtype=int)
wp.launch(split_signs, dim=4, inputs=[x, mag, sign])
lo = wp.zeros(2, dtype=float)
hi = wp.zeros(2, dtype=float)
wp.launch(minmax_pairs, dim=2, inputs=[x, lo, hi])
print(mag.numpy(), sign.numpy(), lo.numpy(), hi.numpy())
