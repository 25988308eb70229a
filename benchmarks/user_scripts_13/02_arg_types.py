"""Falling points; the gravity vector comes from the command line as "x,y,z"."""

import argparse

import warp as wp


def vec_arg(text):
    return tuple(float(v) for v in text.split(","))


def make_gravity(g, damped=False):
    @wp.kernel
    def gravity_step(v: wp.array(dtype=wp.vec3), dt: float):
        i = wp.tid()
        vi = v[i] + g * dt
        if damped:
            vi = vi * 0.99
        v[i] = vi

    return gravity_step


def make_scale(s):
    @wp.kernel
    def scale_const(v: wp.array(dtype=wp.vec3)):
        i = wp.tid()
        v[i] = v[i] * s

    return scale_const


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gravity", type=lambda s: tuple(float(v) for v in s.split(",")), default="0,-9.8,0")
    parser.add_argument("--damped", action="store_true", help="apply a little damping")
    parser.add_argument("-v", "--verbose", action="count", default=0)
    parser.add_argument("--half", action="store_const", const=0.5, default=1.0)
    args = parser.parse_args()

    step = make_gravity(wp.vec3(*args.gravity), damped=args.damped)
    scale = make_scale(args.half)
    v = wp.zeros(16, dtype=wp.vec3)
    for _ in range(10):
        wp.launch(step, dim=16, inputs=[v, 0.01])
    wp.launch(scale, dim=16, inputs=[v])
    if args.verbose:
        print(v.numpy()[:2])
    print("vy", v.numpy()[0][1])


if __name__ == "__main__":
    main()
