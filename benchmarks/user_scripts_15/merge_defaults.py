import warp as wp

DEFAULTS = {"gain": 1.0, "bias": 0.0, "clip": 10.0}


def make_affine(**overrides):
    cfg = {**DEFAULTS, **overrides}

    @wp.kernel
    def affine_merge(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = wp.static(cfg["gain"]) * x[i] + wp.static(cfg["bias"])

    return affine_merge


def make_clip(**overrides):
    cfg = DEFAULTS | overrides
    hi = cfg["clip"]

    @wp.kernel
    def clip_union(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = wp.min(x[i], hi)

    return clip_union


affine = make_affine(gain=2.0)
clip = make_clip(clip=3.0)

if __name__ == "__main__":
    x = wp.array([1.0, 2.0, 3.0], dtype=float)
    wp.launch(affine, dim=3, inputs=[x])
    wp.launch(clip, dim=3, inputs=[x])
    print(x.numpy())
