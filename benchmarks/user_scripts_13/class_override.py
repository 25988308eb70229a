import warp as wp


class Force:
    @classmethod
    def coeff(cls):
        return 1.0

    @classmethod
    def build(cls):
        c = cls.coeff()

        @wp.kernel
        def apply_coeff(f: wp.array(dtype=wp.vec3), x: wp.array(dtype=wp.vec3)):
            i = wp.tid()
            f[i] = f[i] - c * x[i]

        return apply_coeff

    def kernel(self):
        c = type(self).coeff() * 0.5

        @wp.kernel
        def inst_coeff(f: wp.array(dtype=wp.vec3)):
            i = wp.tid()
            f[i] = f[i] * c

        return inst_coeff


class Spring(Force):
    @classmethod
    def coeff(cls):
        return 40.0


class Drag(Force):
    K = 0.3

    @classmethod
    def coeff(cls):
        return cls.K * 2.0


def main():
    x = wp.full(3, wp.vec3(1.0, 0.0, 0.0), dtype=wp.vec3)
    f = wp.zeros(3, dtype=wp.vec3)
    for force in (Spring, Drag):
        wp.launch(force.build(), dim=3, inputs=[f, x])
    wp.launch(Spring().kernel(), dim=3, inputs=[f])
    print(f.numpy()[0])


if __name__ == "__main__":
    main()
