# pick the integrator with a match statement; each arm defines its own kernel
import argparse

import warp as wp

parser = argparse.ArgumentParser()
parser.add_argument("--integrator", default="semi_implicit", choices=["explicit", "semi_implicit", "verlet"])
args, _ = parser.parse_known_args()

match args.integrator:
    case "explicit":

        @wp.kernel
        def integrate(x: wp.array(dtype=float), v: wp.array(dtype=float), dt: float):
            i = wp.tid()
            x[i] = x[i] + v[i] * dt
            v[i] = v[i] - x[i] * dt

    case "semi_implicit":

        @wp.kernel
        def integrate(x: wp.array(dtype=float), v: wp.array(dtype=float), dt: float):
            i = wp.tid()
            v[i] = v[i] - x[i] * dt
            x[i] = x[i] + v[i] * dt

    case "verlet" | "leapfrog":

        @wp.kernel
        def integrate(x: wp.array(dtype=float), v: wp.array(dtype=float), dt: float):
            i = wp.tid()
            v[i] = v[i] - 0.5 * x[i] * dt
            x[i] = x[i] + v[i] * dt
            v[i] = v[i] - 0.5 * x[i] * dt

    case _:
        raise SystemExit("unknown integrator")

x = wp.full(8, 1.0, dtype=float)
v = wp.zeros(8, dtype=float)
for _ in range(100):
    wp.launch(integrate, dim=8, inputs=[x, v, 0.01])
print(args.integrator, x.numpy()[0])
