import numpy as np
import warp as wp


@wp.struct
class Material:
    density: float
    friction: float
    color: wp.vec3


@wp.struct
class Body:
    xform: wp.transform
    inertia: wp.mat33
    material: Material


@wp.struct
class Scene:
    bodies: wp.array(dtype=Body)
    materials: wp.array(dtype=Material)
    gravity: wp.vec3


@wp.kernel
def body_energy(scene: Scene, out: wp.array(dtype=float)):
    i = wp.tid()
    b = scene.bodies[i]
    h = wp.transform_get_translation(b.xform)[1]
    out[i] = b.material.density * wp.trace(b.inertia) * (-scene.gravity[1]) * h


@wp.kernel
def recolor(scene: Scene, threshold: float):
    i = wp.tid()
    m = scene.materials[i]
    if m.friction > threshold:
        m.color = wp.vec3(1.0, 0.0, 0.0)
    else:
        m.color = wp.vec3(0.0, 0.0, 1.0)
    scene.materials[i] = m


@wp.kernel
def spawn(bodies: wp.array(dtype=Body), spacing: float):
    i = wp.tid()
    b = Body()
    b.xform = wp.transform(wp.vec3(float(i) * spacing, 1.0, 0.0), wp.quat_identity())
    b.inertia = wp.identity(n=3, dtype=float)
    mat = Material()
    mat.density = 1000.0
    mat.friction = 0.1 * float(i)
    mat.color = wp.vec3(0.5)
    b.material = mat
    bodies[i] = b


with wp.ScopedDevice("cpu"):
    bodies = wp.zeros(6, dtype=Body)
    wp.launch(spawn, dim=6, inputs=[bodies, 0.5])
    mats = []
    for k in range(6):
        m = Material()
        m.density = 1.0
        m.friction = 0.1 * k
        mats.append(m)
    scene = Scene()
    scene.bodies = bodies
    scene.materials = wp.array(mats, dtype=Material)
    scene.gravity = wp.vec3(0.0, -9.8, 0.0)
    e = wp.zeros(6, dtype=float)
    wp.launch(body_energy, dim=6, inputs=[scene, e])
    wp.launch(recolor, dim=6, inputs=[scene, 0.25])
    print(e.numpy()[:2])
