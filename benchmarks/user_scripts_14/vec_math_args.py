import warp as wp

UP = wp.vec3(0.0, 1.0, 0.0)


def make_fall(g):
    @wp.kernel
    def fall_vecarg(v: wp.array(dtype=wp.vec3), dt: float):
        i = wp.tid()
        v[i] = v[i] + g * dt

    return fall_vecarg


def make_apply(m):
    @wp.kernel
    def apply_mat_arg(p: wp.array(dtype=wp.vec2)):
        i = wp.tid()
        p[i] = m @ p[i]

    return apply_mat_arg


def main():
    g = -UP * 9.8
    m = wp.transpose(wp.mat22(1.0, 2.0, 0.0, 1.0))
    v = wp.zeros(3, dtype=wp.vec3)
    wp.launch(make_fall(g), dim=3, inputs=[v, 0.1])
    p = wp.full(3, wp.vec2(1.0, 1.0), dtype=wp.vec2)
    wp.launch(make_apply(m), dim=3, inputs=[p])
    print(v.numpy()[0], p.numpy()[0])


if __name__ == "__main__":
    main()
