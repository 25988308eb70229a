import warp as wp
import warp.sim  # noqa  (old habit)


@wp.struct
class SpringParams:
    ke: float
    kd: float


def spring_kernel(stiffness=100.0, damping=1.0):
    @wp.kernel
    def eval_springs(
        x: wp.array(dtype=wp.vec3),
        v: wp.array(dtype=wp.vec3),
        indices: wp.array(dtype=int),
        rest: wp.array(dtype=float),
        f: wp.array(dtype=wp.vec3),
    ):
        tid = wp.tid()
        i = indices[tid * 2 + 0]
        j = indices[tid * 2 + 1]
        xij = x[i] - x[j]
        vij = v[i] - v[j]
        l = wp.length(xij)
        dir = xij / l
        c = l - rest[tid]
        dcdt = wp.dot(dir, vij)
        fs = dir * (stiffness * c + damping * dcdt)
        wp.atomic_sub(f, i, fs)
        wp.atomic_add(f, j, fs)

    return eval_springs


@wp.kernel
def eval_springs_struct(
    x: wp.array(dtype=wp.vec3),
    indices: wp.array(dtype=int),
    rest: wp.array(dtype=float),
    params: SpringParams,
    f: wp.array(dtype=wp.vec3),
):
    tid = wp.tid()
    i = indices[tid * 2 + 0]
    j = indices[tid * 2 + 1]
    xij = x[i] - x[j]
    l = wp.length(xij)
    fs = wp.normalize(xij) * params.ke * (l - rest[tid])
    wp.atomic_sub(f, i, fs)
    wp.atomic_add(f, j, fs)


def main():
    soft = spring_kernel(stiffness=50.0)
    stiff = spring_kernel(stiffness=1.0e4, damping=10.0)
    print(soft, stiff)


if __name__ == "__main__":
    main()
