import warp as warp
import numpy

USE_DOUBLE = False
if USE_DOUBLE:
    real = warp.float64
else:
    real = warp.float32

try:
    KERNEL_RADIUS = float(open("radius.txt").read())
except FileNotFoundError:
    KERNEL_RADIUS = 0.1


@warp.func
def poly6(r2: real, h: real):
    h2 = h * h
    if r2 >= h2:
        return real(0.0)
    d = h2 - r2
    return real(315.0 / (64.0 * 3.14159)) * d * d * d / (h2 * h2 * h2 * h2 * h)


@warp.kernel
def sph_density(x: warp.array(dtype=warp.vec3), rho: warp.array(dtype=real), mass: real):
    i = warp.tid()
    s = real(0.0)
    for j in range(x.shape[0]):
        d = x[i] - x[j]
        s += mass * poly6(real(warp.dot(d, d)), real(KERNEL_RADIUS))
    rho[i] = s


with warp.ScopedDevice("cpu"):

    @warp.kernel
    def pressure(rho: warp.array(dtype=real), p: warp.array(dtype=real), k: real, rho0: real):
        i = warp.tid()
        p[i] = k * (rho[i] - rho0)

    rho = warp.zeros(10, dtype=real)
    p = warp.zeros(10, dtype=real)
    warp.launch(pressure, dim=10, inputs=[rho, p, real(1.0), real(1000.0)])
