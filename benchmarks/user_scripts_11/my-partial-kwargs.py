import functools

import warp as wp


def make_lerp(t: float, *, clamp: bool = False):
    @wp.kernel
    def lerp_kw(a: wp.array(dtype=float), b: wp.array(dtype=float), out: wp.array(dtype=float)):
        i = wp.tid()
        v = a[i] + t * (b[i] - a[i])
        if wp.static(clamp):
            v = wp.clamp(v, 0.0, 1.0)
        out[i] = v

    return lerp_kw


clamped = functools.partial(make_lerp, clamp=True)

if __name__ == "__main__":
    a = wp.zeros(4, dtype=float)
    b = wp.full(4, 3.0, dtype=float)
    out = wp.zeros(4, dtype=float)
    for k in (make_lerp(0.5), clamped(0.75)):
        wp.launch(k, dim=4, inputs=[a, b, out])
    print(out.numpy())
