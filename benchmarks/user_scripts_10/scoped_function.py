import warp as wp


def simulate(device: str = "cpu", steps: int = 3):
    with wp.ScopedDevice(device):

        @wp.kernel
        def gravity_scoped(v: wp.array(dtype=wp.vec3), dt: float):
            i = wp.tid()
            v[i] = v[i] + wp.vec3(0.0, -9.81, 0.0) * dt

        v = wp.zeros(4, dtype=wp.vec3)
        for _ in range(steps):
            wp.launch(gravity_scoped, dim=4, inputs=[v, 0.01])
        return v.numpy()


@wp.kernel(enable_backward=False, module="unique")
def unique_reset(v: wp.array(dtype=wp.vec3)):
    v[wp.tid()] = wp.vec3()


print(simulate())
with wp.ScopedDevice("cpu"):
    v = wp.ones(2, dtype=wp.vec3)
    wp.launch(unique_reset, dim=2, inputs=[v])
