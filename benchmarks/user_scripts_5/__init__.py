# makes the folder importable as a package from elsewhere; it also holds a shared helper and a kernel
import warp as wp


@wp.func
def lerp3(a: wp.vec3, b: wp.vec3, t: float) -> wp.vec3:
    return a + (b - a) * t


@wp.kernel
def package_lerp(a: wp.array(dtype=wp.vec3), b: wp.array(dtype=wp.vec3), t: float, out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    out[i] = lerp3(a[i], b[i], t)
