# written for warp 0.x/1.0 with warp.sim (removed since)
import warp as wp
import warp.sim
import warp.sim.render


@wp.kernel
def compute_com(body_q: wp.array(dtype=wp.transform), body_mass: wp.array(dtype=float), com: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    p = wp.transform_get_translation(body_q[tid])
    wp.atomic_add(com, 0, p * body_mass[tid])


@wp.kernel
def apply_wind(particle_f: wp.array(dtype=wp.vec3), wind: wp.vec3):
    tid = wp.tid()
    particle_f[tid] = particle_f[tid] + wind


class Example:
    def __init__(self, stage=None):
        builder = wp.sim.ModelBuilder()
        builder.add_cloth_grid(
            pos=wp.vec3(0.0, 4.0, 0.0), rot=wp.quat_identity(), vel=wp.vec3(), dim_x=32, dim_y=32,
            cell_x=0.1, cell_y=0.1, mass=0.1,
        )
        self.model = builder.finalize()
        self.integrator = wp.sim.SemiImplicitIntegrator()
        self.state_0 = self.model.state()
        self.state_1 = self.model.state()
        self.renderer = wp.sim.render.SimRenderer(self.model, stage) if stage else None

    def step(self, dt):
        self.state_0.clear_forces()
        wp.launch(apply_wind, dim=self.model.particle_count, inputs=[self.state_0.particle_f, wp.vec3(1.0, 0.0, 0.0)])
        self.integrator.simulate(self.model, self.state_0, self.state_1, dt)
        self.state_0, self.state_1 = self.state_1, self.state_0


if __name__ == "__main__":
    ex = Example()
    for _ in range(100):
        ex.step(1.0 / 60.0)
