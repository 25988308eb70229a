import warp as wp

GRAVITY = wp.constant(wp.vec3(0.0, -9.8, 0.0))
SCALE = wp.constant(1.25)


def make_gravity(g: wp.vec3):
    @wp.kernel
    def gravity_const(v: wp.array(dtype=wp.vec3), dt: float):
        i = wp.tid()
        v[i] = v[i] + g * dt

    return gravity_const


def make_scale(s: float):
    @wp.kernel
    def scale_const_arg(v: wp.array(dtype=wp.vec3)):
        i = wp.tid()
        v[i] = v[i] * s

    return scale_const_arg


fall = make_gravity(GRAVITY)
grow = make_scale(SCALE * 2.0)

if __name__ == "__main__":
    v = wp.zeros(3, dtype=wp.vec3)
    wp.launch(fall, dim=3, inputs=[v, 0.1])
    wp.launch(grow, dim=3, inputs=[v])
    print(v.numpy())
