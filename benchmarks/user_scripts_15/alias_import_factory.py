import warp as wp
from helpers import make_norm as build_norm
from helpers import make_shrink as shrink_op


@wp.kernel
def count_alias(x: wp.array(dtype=float), n: wp.array(dtype=int)):
    i = wp.tid()
    if x[i] != 0.0:
        wp.atomic_add(n, 0, 1)


def main():
    v = wp.array([[1.0, -2.0, 0.5]], dtype=wp.vec3)
    out = wp.zeros(1, dtype=float)
    wp.launch(build_norm(1), dim=1, inputs=[v, out])
    wp.launch(shrink_op(0.75), dim=1, inputs=[out])
    n = wp.zeros(1, dtype=int)
    wp.launch(count_alias, dim=1, inputs=[out, n])
    print(out.numpy(), n.numpy())


if __name__ == "__main__":
    main()
