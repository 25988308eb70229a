import argparse

import warp as wp


def make_fall(g: float):
    @wp.kernel
    def fall_g(v: wp.array(dtype=wp.vec3), dt: float):
        i = wp.tid()
        v[i] = v[i] + wp.vec3(0.0, -g, 0.0) * dt

    return fall_g


def make_clamp(use_clamp: bool, limit: float):
    @wp.kernel
    def maybe_clamp(v: wp.array(dtype=wp.vec3)):
        i = wp.tid()
        if wp.static(use_clamp):
            v[i] = wp.vec3(wp.clamp(v[i][0], -limit, limit), wp.clamp(v[i][1], -limit, limit), wp.clamp(v[i][2], -limit, limit))

    return maybe_clamp


def main():
    parser = argparse.ArgumentParser()
    phys = parser.add_argument_group("physics")
    phys.add_argument("--gravity", type=float, default=9.81)
    phys.add_argument("--limit", type=float, default=4.0)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--fast", action="store_true")
    mode.add_argument("--accurate", action="store_true")
    parser.add_argument("--clamp", action=argparse.BooleanOptionalAction, default=True)
    args = parser.parse_args()
    v = wp.zeros(8, dtype=wp.vec3)
    wp.launch(make_fall(args.gravity), dim=8, inputs=[v, 0.1])
    wp.launch(make_clamp(args.clamp, args.limit), dim=8, inputs=[v])
    print(v.numpy()[0])


if __name__ == "__main__":
    main()
