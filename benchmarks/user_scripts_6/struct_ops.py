# structs three deep, a struct with mat33/quat/array2d fields, a struct returned by a wp.func
import numpy as np
import warp as wp


@wp.struct
class Material:
    density: float
    friction: float


@wp.struct
class Shape:
    material: Material
    half_extents: wp.vec3


@wp.struct
class Body:
    shape: Shape
    rot: wp.quat
    inertia: wp.mat33
    pos: wp.vec3


@wp.struct
class Contact:
    point: wp.vec3
    depth: float


@wp.struct
class Scene:
    grid: wp.array2d(dtype=float)
    bodies: wp.array(dtype=Body)


@wp.func
def ground_contact(b: Body):
    c = Contact()
    c.point = b.pos - wp.vec3(0.0, b.shape.half_extents[1], 0.0)
    c.depth = wp.max(0.0, -c.point[1])
    return c


@wp.kernel
def update_bodies(scene: Scene, dt: float):
    i = wp.tid()
    b = scene.bodies[i]
    m = b.shape.material.density * 8.0 * b.shape.half_extents[0] * b.shape.half_extents[1] * b.shape.half_extents[2]
    w = wp.quat_rotate(b.rot, wp.vec3(0.0, 1.0, 0.0))
    b.pos = b.pos + w * dt * (1.0 / m) + b.inertia * wp.vec3(0.0, -dt, 0.0)
    scene.bodies[i] = b
    scene.grid[i, 0] = m


@wp.kernel
def pack_contacts(bodies: wp.array(dtype=Body), out: wp.array(dtype=Contact)):
    i = wp.tid()
    out[i] = ground_contact(bodies[i])


n = 3
bodies = []
for k in range(n):
    b = Body()
    b.shape.material.density = 1000.0
    b.shape.material.friction = 0.5
    b.shape.half_extents = wp.vec3(0.1, 0.1 * (k + 1), 0.1)
    b.rot = wp.quat_identity()
    b.inertia = wp.mat33(np.eye(3, dtype=np.float32))
    b.pos = wp.vec3(0.0, 0.05 * k, 0.0)
    bodies.append(b)
scene = Scene()
scene.bodies = wp.array(bodies, dtype=Body)
scene.grid = wp.zeros((n, 2), dtype=float)
wp.launch(update_bodies, dim=n, inputs=[scene, 0.01])
contacts = wp.zeros(n, dtype=Contact)
wp.launch(pack_contacts, dim=n, inputs=[scene.bodies, contacts])
print(scene.grid.numpy()[:, 0], contacts.numpy()["depth"])
