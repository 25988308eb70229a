import warp as wp

vec5 = wp.types.vector(5, wp.float64)
mat32h = wp.types.matrix((3, 2), wp.float16)
Mat3d = wp.mat(shape=(3, 3), dtype=wp.float64) if hasattr(wp, "mat") else wp.mat33d


@wp.kernel
def vec5_norms(v: wp.array(dtype=vec5), out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    out[i] = wp.sqrt(wp.dot(v[i], v[i]))


@wp.kernel
def half_mat_apply(m: wp.array(dtype=mat32h), x: wp.array(dtype=wp.vec2h), y: wp.array(dtype=wp.vec3h),
                   r: wp.array(dtype=Mat3d)):
    i = wp.tid()
    y[i] = m[i] * x[i]
    r[i] = wp.identity(3, dtype=wp.float64)


n = 2
v = wp.ones(n, dtype=vec5)
o = wp.zeros(n, dtype=wp.float64)
wp.launch(vec5_norms, dim=n, inputs=[v, o])
m = wp.ones(n, dtype=mat32h)
x = wp.ones(n, dtype=wp.vec2h)
y = wp.zeros(n, dtype=wp.vec3h)
r = wp.zeros(n, dtype=Mat3d)
wp.launch(half_mat_apply, dim=n, inputs=[m, x, y, r])
print(o.numpy(), y.numpy()[0])
