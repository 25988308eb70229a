import warp as wp

SCALE = wp.constant(2.5)
OFFSET = wp.constant(wp.vec3(1.0, 2.0, 3.0))
COUNT = wp.constant(4)
HALF = wp.float32(0.5)
