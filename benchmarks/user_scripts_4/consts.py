# physical constants shared by my scripts
import warp as wp

GRAVITY = wp.constant(9.81)
DAMPING = wp.constant(0.02)
MAX_ITERS = wp.constant(8)
UP = wp.constant(wp.vec3(0.0, 1.0, 0.0))
TOL = 1e-5  # plain python float, not a warp constant
