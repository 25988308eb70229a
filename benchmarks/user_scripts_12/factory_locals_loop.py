import warp as wp


def make_normalized(weights):
    total = 0.0
    for w in weights:
        total += w
    inv = 1.0 / total
    first, *rest = weights
    last = rest[-1] if rest else first

    @wp.kernel
    def weighted_ends(a: wp.array(dtype=float), out: wp.array(dtype=float)):
        i = wp.tid()
        n = a.shape[0]
        out[i] = inv * (first * a[i] + last * a[(i + 1) % n])

    return weighted_ends


def make_box(origin=(0.0, 0.0, 0.0), size=1.0):
    ox, oy, oz = origin
    lo = wp.vec3(ox, oy, oz)
    hi = lo + wp.vec3(size, size, size)

    @wp.kernel
    def inside_box(p: wp.array(dtype=wp.vec3), flag: wp.array(dtype=int)):
        i = wp.tid()
        q = p[i]
        ok = q[0] >= lo[0] and q[1] >= lo[1] and q[2] >= lo[2] and q[0] <= hi[0] and q[1] <= hi[1] and q[2] <= hi[2]
        flag[i] = wp.where(ok, 1, 0)

    return inside_box


if __name__ == "__main__":
    a = wp.ones(4, dtype=float)
    out = wp.zeros(4, dtype=float)
    wp.launch(make_normalized([1.0, 2.0, 1.0]), dim=4, inputs=[a, out])
    p = wp.array([[0.5, 0.5, 0.5], [2.0, 0.0, 0.0]], dtype=wp.vec3)
    flag = wp.zeros(2, dtype=int)
    wp.launch(make_box(origin=(0.0, 0.0, 0.0), size=1.0), dim=2, inputs=[p, flag])
    print(out.numpy(), flag.numpy())
