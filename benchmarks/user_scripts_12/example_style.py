# Example Particle Neighbours
#
# Written after Warp's own examples: an Example class, argparse under __main__,
# the device from the command line.
import numpy as np

import warp as wp


@wp.kernel
def count_within(
    grid: wp.uint64, points: wp.array(dtype=wp.vec3), radius: float, counts: wp.array(dtype=int)
):
    tid = wp.tid()
    i = wp.hash_grid_point_id(grid, tid)
    p = points[i]
    n = int(0)
    for j in wp.hash_grid_query(grid, p, radius):
        if wp.length(points[j] - p) <= radius:
            n += 1
    counts[i] = n


class Example:
    def __init__(self, num_points=256, radius=0.1, smoothing=0.5):
        rng = np.random.default_rng(42)
        self.points = wp.array(rng.random((num_points, 3)), dtype=wp.vec3)
        self.grid = wp.HashGrid(16, 16, 16)
        self.radius = radius
        self.counts = wp.zeros(num_points, dtype=int)
        self.density = wp.zeros(num_points, dtype=float)
        h = radius
        s = smoothing

        @wp.kernel
        def smooth_density(counts: wp.array(dtype=int), density: wp.array(dtype=float)):
            i = wp.tid()
            density[i] = s * float(counts[i]) / (h * h * h) + (1.0 - s) * density[i]

        self.smooth = smooth_density

    def step(self):
        self.grid.build(self.points, self.radius)
        wp.launch(count_within, dim=len(self.points), inputs=[self.grid.id, self.points, self.radius, self.counts])
        wp.launch(self.smooth, dim=len(self.points), inputs=[self.counts, self.density])


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--device", type=str, default=None, help="Override the default Warp device.")
    parser.add_argument("--num-frames", type=int, default=2, help="Total number of frames.")
    parser.add_argument("--num-points", type=int, default=128)
    parser.add_argument("--radius", type=float, default=0.15)
    args = parser.parse_known_args()[0]

    with wp.ScopedDevice(args.device):
        example = Example(num_points=args.num_points, radius=args.radius)
        for _ in range(args.num_frames):
            example.step()
        print(example.counts.numpy()[:4])
