# decorators that are expressions: a stored wp.kernel(...) decorator, @(cond and a or b), a registry lookup
import warp as wp

FAST = True
no_grad = wp.kernel(enable_backward=False)
DECORATORS = {"kernel": wp.kernel, "func": wp.func}


@no_grad
def stored_decorator(a: wp.array(dtype=float)):
    a[wp.tid()] = a[wp.tid()] + 1.0


@(wp.kernel(enable_backward=False) if FAST else wp.kernel)
def conditional_decorator(a: wp.array(dtype=float)):
    a[wp.tid()] = a[wp.tid()] * 0.5


@DECORATORS["kernel"]
def looked_up_decorator(a: wp.array(dtype=float)):
    a[wp.tid()] = wp.exp(a[wp.tid()])


a = wp.zeros(4, dtype=float)
wp.launch(stored_decorator, dim=4, inputs=[a])
wp.launch(conditional_decorator, dim=4, inputs=[a])
wp.launch(looked_up_decorator, dim=4, inputs=[a])
print(a.numpy())
