"""Laid out like Warp's examples: an Example class, step(), render(), argparse under __main__."""

import argparse

import warp as wp


@wp.kernel
def integrate_ex(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), g: wp.vec3, dt: float):
    i = wp.tid()
    v[i] = v[i] + g * dt
    x[i] = x[i] + v[i] * dt


def make_drag(coeff, dt):
    @wp.kernel
    def drag_ex(v: wp.array(dtype=wp.vec3)):
        i = wp.tid()
        v[i] = v[i] * (1.0 - coeff * dt)

    return drag_ex


class Example:
    def __init__(self, stage_path=None, num_particles=16, fps=60, substeps=4, drag=0.5):
        self.frame_dt = 1.0 / fps
        self.sim_substeps = substeps
        self.sim_dt = self.frame_dt / self.sim_substeps
        self.x = wp.zeros(num_particles, dtype=wp.vec3)
        self.v = wp.zeros(num_particles, dtype=wp.vec3)
        self.drag_kernel = make_drag(drag, self.sim_dt)
        self.renderer = None if stage_path is None else object()

    def step(self):
        for _ in range(self.sim_substeps):
            wp.launch(integrate_ex, dim=len(self.x), inputs=[self.x, self.v, wp.vec3(0.0, -9.8, 0.0), self.sim_dt])
            wp.launch(self.drag_kernel, dim=len(self.v), inputs=[self.v])

    def render(self):
        if self.renderer is None:
            return


if __name__ == "__main__":
    parser = argparse.ArgumentParser(formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--device", type=str, default=None, help="Override the default Warp device.")
    parser.add_argument("--stage_path", type=lambda x: None if x == "None" else str(x), default=None)
    parser.add_argument("--num_frames", type=int, default=3)
    parser.add_argument("--drag", type=float, default=0.25)
    args = parser.parse_known_args()[0]

    with wp.ScopedDevice(args.device):
        example = Example(stage_path=args.stage_path, drag=args.drag)
        for _ in range(args.num_frames):
            example.step()
            example.render()
        print(example.x.numpy()[0])
