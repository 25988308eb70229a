import warp as wp

snippet = """
    out[tid] = a[tid] * 2.0f + 1.0f;
"""


@wp.func_native(snippet)
def twice_plus_one(a: wp.array(dtype=float), out: wp.array(dtype=float), tid: int): ...


@wp.kernel
def call_native(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    tid = wp.tid()
    twice_plus_one(a, out, tid)


a = wp.full(4, 3.0, dtype=float, device="cpu")
out = wp.zeros(4, dtype=float, device="cpu")
wp.launch(call_native, dim=4, inputs=[a, out], device="cpu")
print(out.numpy())
