import warp as wp


class ClothSolver:
    def __init__(self, width, height, stiffness=100.0, iterations=10):
        self.width = width
        self.height = height
        self.stiffness = stiffness
        self.iterations = iterations
        self.num_particles = width * height
        self.positions = wp.zeros(self.num_particles, dtype=wp.vec3)
        self.constraint_kernel = self._make_constraint_kernel()

    def _make_constraint_kernel(self):
        w = self.width
        h = self.height
        k = self.stiffness

        @wp.kernel
        def solve_stretch(x: wp.array(dtype=wp.vec3), rest: float):
            tid = wp.tid()
            i = tid % w
            j = tid // w
            if i < w - 1:
                a = x[j * w + i]
                b = x[j * w + i + 1]
                d = b - a
                l = wp.length(d)
                corr = d * (0.5 * (l - rest) / wp.max(l, 1.0e-6)) / k
                x[j * w + i] = a + corr
            if j < h - 1:
                x[tid] = x[tid] * 1.0

        return solve_stretch

    def step(self):
        for _ in range(self.iterations):
            wp.launch(self.constraint_kernel, dim=self.num_particles, inputs=[self.positions, 0.1])


if __name__ == "__main__":
    solver = ClothSolver(32, 32)
    solver.step()
