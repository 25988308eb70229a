import warp as wp


@wp.func
def symplectic_euler(x: wp.vec3, v: wp.vec3, f: wp.vec3, inv_m: float, dt: float):
    v_new = v + f * inv_m * dt
    return x + v_new * dt
