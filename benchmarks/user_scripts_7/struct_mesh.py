import numpy as np
import warp as wp


@wp.struct
class Collider:
    mesh: wp.uint64
    margin: float
    xform: wp.transform


@wp.struct
class Scene:
    colliders: wp.array(dtype=Collider)
    count: int


@wp.kernel
def nearest_distance(scene: Scene, pts: wp.array(dtype=wp.vec3), dist: wp.array(dtype=float)):
    i = wp.tid()
    best = float(1.0e9)
    for c in range(scene.count):
        col = scene.colliders[c]
        p_local = wp.transform_point(wp.transform_inverse(col.xform), pts[i])
        q = wp.mesh_query_point_no_sign(col.mesh, p_local, 100.0)
        if q.result:
            cp = wp.mesh_eval_position(col.mesh, q.face, q.u, q.v)
            best = wp.min(best, wp.length(cp - p_local) - col.margin)
    dist[i] = best


@wp.kernel
def push_out(scene: Scene, pts: wp.array(dtype=wp.vec3), dist: wp.array(dtype=float)):
    i = wp.tid()
    if dist[i] < 0.0:
        pts[i] = pts[i] + wp.vec3(0.0, -dist[i], 0.0)


pts = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], dtype=np.float32)
tri = wp.Mesh(points=wp.array(pts, dtype=wp.vec3), indices=wp.array([0, 1, 2], dtype=int))
col = Collider()
col.mesh = tri.id
col.margin = 0.05
col.xform = wp.transform(wp.vec3(0.0, 0.0, 0.0), wp.quat_identity())
scene = Scene()
scene.colliders = wp.array([col], dtype=Collider)
scene.count = 1
q = wp.array(np.array([[0.2, 0.2, 0.01], [3.0, 3.0, 3.0]], dtype=np.float32), dtype=wp.vec3)
d = wp.zeros(2, dtype=float)
wp.launch(nearest_distance, dim=2, inputs=[scene, q, d])
wp.launch(push_out, dim=2, inputs=[scene, q, d])
print(d.numpy())
