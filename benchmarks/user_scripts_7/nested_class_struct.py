import numpy as np
import warp as wp


class Sim:
    @wp.struct
    class State:
        pos: wp.array(dtype=wp.vec2)
        vel: wp.array(dtype=wp.vec2)
        count: int

    class Params:
        MAX_SPEED = wp.constant(4.0)
        BOX = wp.constant(wp.vec2(1.0, 1.0))


@wp.kernel
def clamp_speed(s: Sim.State):
    i = wp.tid()
    v = s.vel[i]
    sp = wp.length(v)
    if sp > Sim.Params.MAX_SPEED:
        s.vel[i] = v * (Sim.Params.MAX_SPEED / sp)


@wp.kernel
def wrap_box(s: Sim.State, dt: float):
    i = wp.tid()
    p = s.pos[i] + s.vel[i] * dt
    b = Sim.Params.BOX
    p = wp.vec2(p[0] - b[0] * wp.floor(p[0] / b[0]), p[1] - b[1] * wp.floor(p[1] / b[1]))
    s.pos[i] = p


state = Sim.State()
state.count = 10
state.pos = wp.array(np.random.default_rng(0).random((10, 2)).astype(np.float32), dtype=wp.vec2)
state.vel = wp.array(np.full((10, 2), 5.0, dtype=np.float32), dtype=wp.vec2)
wp.launch(clamp_speed, dim=state.count, inputs=[state])
wp.launch(wrap_box, dim=state.count, inputs=[state, 0.1])
print(state.pos.numpy()[0])
