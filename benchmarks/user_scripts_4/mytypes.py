import warp as wp

vec = wp.vec3d
real = wp.float64
Vec2Array = wp.array(dtype=wp.vec2)
IntGrid = wp.array2d(dtype=wp.int32)
mat2d = wp.types.matrix(shape=(2, 2), dtype=wp.float64)


@wp.struct
class Box:
    lo: vec
    hi: vec
