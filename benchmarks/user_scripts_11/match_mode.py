import sys

import warp as wp

MODE = sys.argv[1] if len(sys.argv) > 1 else "explicit"


def make_integrator(mode: str, dt: float):
    match mode:
        case "explicit":

            @wp.kernel
            def explicit_step(x: wp.array(dtype=float), v: wp.array(dtype=float)):
                i = wp.tid()
                x[i] = x[i] + dt * v[i]

            return explicit_step
        case "damped" | "implicit":

            @wp.kernel
            def damped_step(x: wp.array(dtype=float), v: wp.array(dtype=float)):
                i = wp.tid()
                x[i] = x[i] + dt * v[i] / (1.0 + dt)

            return damped_step
        case _:
            raise ValueError(mode)


match MODE:
    case "explicit":
        STEP = make_integrator("explicit", 0.01)
    case other:
        STEP = make_integrator(other, 0.02)

x = wp.zeros(8, dtype=float)
v = wp.ones(8, dtype=float)
wp.launch(STEP, dim=8, inputs=[x, v])
print(x.numpy())
