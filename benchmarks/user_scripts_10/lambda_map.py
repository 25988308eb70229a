import warp as wp

TABLE = {"slow": 0.25, "fast": 4.0}


def make_speed(factor: float):
    @wp.kernel
    def speed_scale(v: wp.array(dtype=wp.vec2)):
        i = wp.tid()
        v[i] = v[i] * factor

    return speed_scale


def make_offset(dx: float, dy: float):
    @wp.kernel
    def offset2(p: wp.array(dtype=wp.vec2)):
        i = wp.tid()
        p[i] = p[i] + wp.vec2(dx, dy)

    return offset2


SPEEDS = dict(map(lambda kv: (kv[0], make_speed(kv[1])), TABLE.items()))
OFFSETS = sorted((make_offset(*d) for d in [(1.0, 0.0), (0.0, 1.0)]), key=lambda k: k.key)

v = wp.ones(3, dtype=wp.vec2)
for k in SPEEDS.values():
    wp.launch(k, dim=3, inputs=[v])
for k in OFFSETS:
    wp.launch(k, dim=3, inputs=[v])
print(v.numpy()[0])
