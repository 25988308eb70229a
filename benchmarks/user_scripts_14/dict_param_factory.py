import warp as wp

FILTER = {"taps": [0.25, 0.5, 0.25], "normalize": True}
GAIN = {"gain": 1.5, "offset": 0.0}


def make_filter(cfg):
    taps = cfg["taps"]
    total = sum(taps) if cfg.get("normalize", False) else 1.0

    @wp.kernel
    def filter_cfg(src: wp.array(dtype=float), dst: wp.array(dtype=float)):
        i = wp.tid()
        n = src.shape[0]
        acc = float(0.0)
        for k in range(wp.static(len(taps))):
            acc += wp.static(taps[k] / total) * src[wp.clamp(i + k - 1, 0, n - 1)]
        dst[i] = acc

    return filter_cfg


def make_gain(cfg):
    @wp.kernel
    def gain_cfg(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] * wp.static(cfg["gain"]) + wp.static(cfg["offset"])

    return gain_cfg


def main():
    src = wp.full(6, 1.0, dtype=float)
    dst = wp.zeros(6, dtype=float)
    wp.launch(make_filter(FILTER), dim=6, inputs=[src, dst])
    wp.launch(make_gain({**GAIN, "offset": 0.5}), dim=6, inputs=[dst])
    print(dst.numpy())


if __name__ == "__main__":
    main()
