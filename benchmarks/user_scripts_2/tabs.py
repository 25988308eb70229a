import warp as wp


@wp.kernel
def tabbed_velocity(x: wp.array(dtype=wp.vec3), x_prev: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), dt: float):
	i = wp.tid()
	if dt > 0.0:
		v[i] = (x[i] - x_prev[i]) / dt
	else:
		v[i] = wp.vec3(0.0)


class Damper:
	@wp.kernel
	def damp(v: wp.array(dtype=wp.vec3), k: float):
		i = wp.tid()
		v[i] = v[i] * (1.0 - k)
