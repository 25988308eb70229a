import warp as wp

GAINS = [0.5, -3.0, 2.0]
BOUNDS = [(-1.0, 1.0), (-2.0, 0.5)]


def make_gain(g: float):
    @wp.kernel
    def gain_maxkey(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = x[i] * g

    return gain_maxkey


def make_clip(lo: float, hi: float):
    @wp.kernel
    def clip_zipstar(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = wp.clamp(x[i], lo, hi)

    return clip_zipstar


def main():
    strongest = max(GAINS, key=abs)
    los, his = zip(*BOUNDS)
    x = wp.array([0.1, 0.2, 0.3], dtype=float)
    wp.launch(make_gain(strongest), dim=3, inputs=[x])
    wp.launch(make_clip(min(los), sorted(his, reverse=True)[0]), dim=3, inputs=[x])
    print(x.numpy())


if __name__ == "__main__":
    main()
