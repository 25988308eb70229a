import warp as wp

import wci_forms.funcs as f
from wci_forms import constants
from wci_forms.constants import COUNT, HALF, OFFSET
from wci_forms.shapes import Body, Scene, Shape


@wp.kernel
def integrate(scene: Scene, bodies: wp.array(dtype=Body), dt: float):
    i = wp.tid()
    b = bodies[i]
    if b.shape == Shape.BOX:
        b.position = b.position + scene.gravity * dt * f.scaled(b.mass) + OFFSET
    bodies[i] = b


@wp.kernel
def activations(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    v = f.softplus(x[i]) + f.clamp_unit(x[i]) * HALF
    for _ in range(COUNT):
        v = f.native_add(v, constants.SCALE)
    y[i] = v


@wp.kernel
def vectors(x: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    x[i] = f.scaled(x[i])
