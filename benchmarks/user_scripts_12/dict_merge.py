import warp as wp

DEFAULTS = {"k": 100.0, "damping": 0.1, "rest": 1.0}
LIMITS = {0.5, -0.5}


def make_spring(k: float, damping: float, rest: float):
    @wp.kernel
    def spring_merged(x: wp.array(dtype=float), v: wp.array(dtype=float), f: wp.array(dtype=float)):
        i = wp.tid()
        f[i] = -k * (x[i] - rest) - damping * v[i]

    return spring_merged


def make_clip(lo: float, hi: float):
    @wp.kernel
    def clip_sorted(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = wp.clamp(a[i], lo, hi)

    return clip_sorted


def main():
    x = wp.ones(4, dtype=float)
    v = wp.zeros(4, dtype=float)
    f = wp.zeros(4, dtype=float)
    stiff = make_spring(**(DEFAULTS | {"k": 50.0}))
    soft = make_spring(**{**DEFAULTS, "damping": 0.5})
    for k in (stiff, soft):
        wp.launch(k, dim=4, inputs=[x, v, f])
    wp.launch(make_clip(*sorted(LIMITS)), dim=4, inputs=[f])
    print(f.numpy())


if __name__ == "__main__":
    main()
