# kernels launched from threads; one kernel defined inside the thread's target function
import threading

import warp as wp

results = {}


@wp.kernel
def worker_fill(a: wp.array(dtype=float), value: float):
    a[wp.tid()] = value


def run_job(name, value):
    @wp.kernel
    def thread_local_scale(a: wp.array(dtype=float), s: float):
        a[wp.tid()] = a[wp.tid()] * s

    with wp.ScopedDevice("cpu"):
        a = wp.zeros(4, dtype=float)
        wp.launch(worker_fill, dim=4, inputs=[a, value])
        wp.launch(thread_local_scale, dim=4, inputs=[a, 2.0])
        results[name] = a.numpy().sum()


wp.init()
threads = [threading.Thread(target=run_job, args=(f"job{k}", float(k))) for k in range(2)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(results)
