import json
import os

import warp as wp


def make_gain(g: float):
    @wp.kernel
    def gain_walrus(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = x[i] * g

    return gain_walrus


def make_offset(o: float):
    @wp.kernel
    def offset_env(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = x[i] + o

    return offset_env


def main():
    try:
        cfg = json.loads(os.environ["SIM_CFG"])
    except KeyError:
        cfg = {"gain": 2.0, "offset": 0.5}
    x = wp.ones(3, dtype=float)
    if (g := cfg.get("gain")) is not None:
        wp.launch(make_gain(g), dim=3, inputs=[x])
    wp.launch(make_offset(cfg["offset"]), dim=3, inputs=[x])
    print(x.numpy())


if __name__ == "__main__":
    main()
