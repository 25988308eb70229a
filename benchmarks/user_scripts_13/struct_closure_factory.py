import warp as wp


@wp.struct
class SimParams:
    dt: float
    damping: float


@wp.struct
class Particle:
    x: wp.vec3
    v: wp.vec3


def make_advance_s(p: SimParams):
    @wp.kernel
    def advance_struct(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3)):
        i = wp.tid()
        x[i] = x[i] + v[i] * wp.static(p.dt)
        v[i] = v[i] * wp.static(1.0 - p.damping)

    return advance_struct


def make_zero(dtype):
    @wp.kernel
    def zero_struct(a: wp.array(dtype=dtype)):
        i = wp.tid()
        a[i] = dtype()

    return zero_struct


def main():
    p = SimParams()
    p.dt = 0.01
    p.damping = 0.25
    x = wp.zeros(4, dtype=wp.vec3)
    v = wp.full(4, wp.vec3(1.0, 0.0, 0.0), dtype=wp.vec3)
    wp.launch(make_advance_s(p), dim=4, inputs=[x, v])
    parts = wp.zeros(4, dtype=Particle)
    wp.launch(make_zero(Particle), dim=4, inputs=[parts])
    print(x.numpy()[0], v.numpy()[0])


if __name__ == "__main__":
    main()
