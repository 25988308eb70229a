import numpy as np

import warp as wp


class SurfaceProjector:
    """Projects points onto a triangle mesh; kernels live on the class."""

    @staticmethod
    @wp.kernel
    def project(mesh: wp.uint64, pts: wp.array(dtype=wp.vec3), max_dist: float, out: wp.array(dtype=wp.vec3)):
        i = wp.tid()
        q = wp.mesh_query_point_sign_normal(mesh, pts[i], max_dist)
        if q.result:
            out[i] = wp.mesh_eval_position(mesh, q.face, q.u, q.v)

    @wp.kernel
    def signed_dist(mesh: wp.uint64, pts: wp.array(dtype=wp.vec3), d: wp.array(dtype=float)):
        i = wp.tid()
        q = wp.mesh_query_point_sign_normal(mesh, pts[i], 1.0e6)
        if q.result:
            c = wp.mesh_eval_position(mesh, q.face, q.u, q.v)
            d[i] = q.sign * wp.length(pts[i] - c)

    def __init__(self):
        verts = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=np.float32)
        faces = np.array([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3], dtype=np.int32)
        self.mesh = wp.Mesh(points=wp.array(verts, dtype=wp.vec3), indices=wp.array(faces, dtype=int))

    def run(self, pts):
        out = wp.zeros_like(pts)
        d = wp.zeros(len(pts), dtype=float)
        wp.launch(self.project, dim=len(pts), inputs=[self.mesh.id, pts, 2.0, out])
        wp.launch(SurfaceProjector.signed_dist, dim=len(pts), inputs=[self.mesh.id, pts, d])
        return out.numpy(), d.numpy()


if __name__ == "__main__":
    pts = wp.array([[0.2, 0.2, 0.2], [2.0, 2.0, 2.0]], dtype=wp.vec3)
    print(SurfaceProjector().run(pts))
