import enum

import warp as wp


class Shape(enum.IntEnum):
    SPHERE = 0
    BOX = 1
    CAPSULE = 2


@wp.struct
class Body:
    position: wp.vec3
    mass: float
    shape: int


@wp.struct
class Scene:
    body: Body
    gravity: wp.vec3
