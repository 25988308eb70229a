from dataclasses import dataclass, field

import warp as wp


@dataclass(frozen=True)
class Scene:
    gravity: wp.vec3 = field(default_factory=lambda: wp.vec3(0.0, -9.8, 0.0))
    bounds: tuple = ((-1.0, 0.0, -1.0), (1.0, 2.0, 1.0))
    restitution: float = 0.5


SCENE = Scene()


@wp.kernel
def fall_scene(v: wp.array(dtype=wp.vec3), dt: float):
    i = wp.tid()
    v[i] = v[i] + wp.static(SCENE.gravity) * dt


@wp.kernel
def box_scene(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    lo = wp.static(wp.vec3(*SCENE.bounds[0]))
    hi = wp.static(wp.vec3(*SCENE.bounds[1]))
    p = x[i]
    if p[1] < lo[1]:
        p[1] = lo[1]
        v[i] = wp.vec3(v[i][0], -v[i][1] * wp.static(SCENE.restitution), v[i][2])
    x[i] = wp.min(wp.max(p, lo), hi)


if __name__ == "__main__":
    x = wp.zeros(4, dtype=wp.vec3)
    v = wp.zeros(4, dtype=wp.vec3)
    wp.launch(fall_scene, dim=4, inputs=[v, 0.1])
    wp.launch(box_scene, dim=4, inputs=[x, v])
    print(x.numpy()[0], v.numpy()[0])
