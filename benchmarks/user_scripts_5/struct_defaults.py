# a material struct with default values and a few host-side methods
import warp as wp


@wp.struct
class Material:
    stiffness: float = 1000.0
    damping: float = 0.1
    color: wp.vec3 = wp.vec3(0.8, 0.2, 0.2)
    layer: int

    def softened(self, factor: float):
        m = Material()
        m.stiffness = self.stiffness * factor
        m.damping = self.damping
        return m

    def __repr__(self):
        return f"Material(k={self.stiffness}, c={self.damping})"


@wp.kernel
def spring_forces(x: wp.array(dtype=float), rest: float, mat: Material, f: wp.array(dtype=float)):
    i = wp.tid()
    f[i] = -mat.stiffness * (x[i] - rest) - mat.damping * x[i] + float(mat.layer)


@wp.kernel
def tint(colors: wp.array(dtype=wp.vec3), mat: Material):
    i = wp.tid()
    colors[i] = wp.cw_mul(colors[i], mat.color)


def run():
    mat = Material()
    soft = mat.softened(0.5)
    print(mat, soft)
    x = wp.full(4, 1.2, dtype=float)
    f = wp.zeros(4, dtype=float)
    wp.launch(spring_forces, dim=4, inputs=[x, 1.0, soft, f])
    c = wp.ones(4, dtype=wp.vec3)
    wp.launch(tint, dim=4, inputs=[c, mat])
    print(f.numpy(), c.numpy()[0])


if __name__ == "__main__":
    run()
