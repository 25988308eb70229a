import warp as wp

GAINS = [1.0, 2.0]
BIASES = [0.0, -1.0]
LOS = [-1.0, 0.5, 0.0]
HIS = [1.0, 0.25, 2.0]


def make_affine(gain, bias):
    @wp.kernel
    def affine_map(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = gain * a[i] + bias

    return affine_map


def make_clip(lo, hi):
    @wp.kernel
    def clip_zip(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = wp.min(wp.max(a[i], lo), hi)

    return clip_zip


AFFINES = list(map(make_affine, GAINS, BIASES))


def main():
    clips = [make_clip(lo, hi) for lo, hi in zip(LOS, HIS) if hi > lo]
    a = wp.full(4, 0.75, dtype=float)
    for k in AFFINES:
        wp.launch(k, dim=4, inputs=[a])
    for k in clips:
        wp.launch(k, dim=4, inputs=[a])
    print(a.numpy())


if __name__ == "__main__":
    main()
