# wp.funcs kept in classes: a staticmethod and a class attribute, called as Class.f inside kernels
import warp as wp


def _relu(x: float):
    return wp.max(x, 0.0)


class Ops:
    relu = wp.func(_relu)

    @staticmethod
    @wp.func
    def leaky(x: float, a: float):
        if x > 0.0:
            return x
        return a * x


class Shapes:
    @staticmethod
    @wp.func
    def sphere(p: wp.vec3, r: float):
        return wp.length(p) - r

    @staticmethod
    @wp.func
    def box(p: wp.vec3, b: wp.vec3):
        q = wp.vec3(wp.abs(p[0]), wp.abs(p[1]), wp.abs(p[2])) - b
        return wp.length(wp.vec3(wp.max(q[0], 0.0), wp.max(q[1], 0.0), wp.max(q[2], 0.0)))


@wp.kernel
def eval_shapes(p: wp.array(dtype=wp.vec3), d: wp.array(dtype=float)):
    i = wp.tid()
    d[i] = wp.min(Shapes.sphere(p[i], 0.5), Shapes.box(p[i], wp.vec3(0.3, 0.3, 0.3)))


@wp.kernel
def activate(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = Ops.relu(x[i]) + Ops.leaky(x[i], 0.01)


if __name__ == "__main__":
    p = wp.array([wp.vec3(0.1 * i, 0.0, 0.0) for i in range(10)], dtype=wp.vec3)
    d = wp.zeros(10, dtype=float)
    wp.launch(eval_shapes, dim=10, inputs=[p, d])
    wp.launch(activate, dim=10, inputs=[d])
    print(d.numpy())
