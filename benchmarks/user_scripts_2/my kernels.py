# scratch file: overloads, constants, custom vector types
import warp as wp

SCALE = wp.constant(2.5)
N_BINS = wp.constant(16)

vec5 = wp.types.vector(length=5, dtype=wp.float32)
vec2i = wp.types.vector(length=2, dtype=wp.int32)
mat32 = wp.types.matrix(shape=(3, 2), dtype=wp.float32)


@wp.func
def norm2(v: wp.vec2):
    return wp.dot(v, v)


@wp.func
def norm2(v: wp.vec3):
    return wp.dot(v, v)


@wp.func
def norm2(v: vec5):
    s = float(0.0)
    for k in range(5):
        s += v[k] * v[k]
    return s


@wp.kernel
def norms(a: wp.array(dtype=wp.vec2), b: wp.array(dtype=wp.vec3), c: wp.array(dtype=vec5), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = norm2(a[i]) + norm2(b[i]) + norm2(c[i]) * SCALE


@wp.kernel
def histogram(values: wp.array(dtype=float), bins: wp.array(dtype=int)):
    i = wp.tid()
    b = int(wp.clamp(values[i], 0.0, 0.999) * float(N_BINS))
    wp.atomic_add(bins, b, 1)


@wp.kernel
def project(m: wp.array(dtype=mat32), v: wp.array(dtype=wp.vec2), out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    out[i] = m[i] * v[i]


@wp.kernel
def cell_index(p: wp.array(dtype=wp.vec2), cells: wp.array(dtype=vec2i)):
    i = wp.tid()
    cells[i] = vec2i(int(p[i][0] * float(N_BINS)), int(p[i][1] * float(N_BINS)))


print("loaded my kernels")
