# argparse subcommands (`run` is the default), a kernel per subcommand made in its handler
import argparse

import warp as wp


@wp.kernel
def init_wave(u: wp.array(dtype=float), k: float):
    i = wp.tid()
    u[i] = wp.sin(k * float(i))


def cmd_run(args):
    c = args.speed

    @wp.kernel
    def wave_step(u: wp.array(dtype=float), v: wp.array(dtype=float), dt: float):
        i = wp.tid()
        n = u.shape[0]
        lap = u[(i + 1) % n] - 2.0 * u[i] + u[(i + n - 1) % n]
        v[i] = v[i] + c * c * lap * dt
        u[i] = u[i] + v[i] * dt

    u = wp.zeros(args.n, dtype=float)
    v = wp.zeros(args.n, dtype=float)
    wp.launch(init_wave, dim=args.n, inputs=[u, 0.3])
    for _ in range(args.steps):
        wp.launch(wave_step, dim=args.n, inputs=[u, v, 0.01])
    print(u.numpy()[:4])


def cmd_stats(args):
    @wp.kernel
    def energy(u: wp.array(dtype=float), e: wp.array(dtype=float)):
        wp.atomic_add(e, 0, u[wp.tid()] * u[wp.tid()])

    u = wp.zeros(args.n, dtype=float)
    wp.launch(init_wave, dim=args.n, inputs=[u, 0.3])
    e = wp.zeros(1, dtype=float)
    wp.launch(energy, dim=args.n, inputs=[u, e])
    print(e.numpy())


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=32)
    sub = parser.add_subparsers(dest="cmd")
    run = sub.add_parser("run")
    run.add_argument("--steps", type=int, default=10)
    run.add_argument("--speed", type=float, default=1.0)
    run.set_defaults(func=cmd_run)
    stats = sub.add_parser("stats")
    stats.set_defaults(func=cmd_stats)
    args = parser.parse_args(argv)
    if args.cmd is None:
        args = parser.parse_args([*(argv or []), "run"])
    args.func(args)


if __name__ == "__main__":
    main()
