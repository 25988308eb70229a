import warp as wp

from wci_forms import constants


@wp.func
def scaled(x: float):
    return x * constants.SCALE


@wp.func
def scaled(x: wp.vec3):  # an overload
    return x * constants.SCALE


@wp.func
def softplus(x: float):
    return wp.log(1.0 + wp.exp(x))


@wp.func_grad(softplus)
def adj_softplus(x: float, adj_ret: float):
    wp.adjoint[x] += adj_ret / (1.0 + wp.exp(-x))


@wp.func
def clamp_unit(x: float):
    return wp.clamp(x, 0.0, 1.0)


@wp.func_replay(clamp_unit)
def replay_clamp_unit(x: float):
    return wp.clamp(x, 0.0, 1.0)


snippet = "return a + b;"
adj_snippet = "adj_a += adj_ret; adj_b += adj_ret;"


@wp.func_native(snippet, adj_snippet)
def native_add(a: float, b: float) -> float: ...
