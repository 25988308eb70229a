import warp as wp


def make_matvec(n: int, dtype=wp.float32):
    vec_t = wp.types.vector(length=n, dtype=dtype)
    mat_t = wp.types.matrix(shape=(n, n), dtype=dtype)

    @wp.kernel
    def matvec(m: wp.array(dtype=mat_t), v: wp.array(dtype=vec_t), out: wp.array(dtype=vec_t)):
        tid = wp.tid()
        out[tid] = m[tid] * v[tid]

    return matvec


def make_transpose(n):
    mat_t = wp.types.matrix(shape=(n, n), dtype=wp.float32)

    @wp.kernel
    def transpose(m: wp.array(dtype=mat_t)):
        tid = wp.tid()
        m[tid] = wp.transpose(m[tid])

    return transpose


matvec3 = make_matvec(3)
matvec4 = make_matvec(4)
matvec6d = make_matvec(6, wp.float64)
kernels = [make_transpose(n) for n in (2, 3, 4)]
