# a file named after a Python keyword (nobody can import it, you can only run it)
import numpy as np
import warp as wp


@wp.kernel
def classify(x: wp.array(dtype=float), labels: wp.array(dtype=int)):
    i = wp.tid()
    v = x[i]
    if v < -0.5:
        labels[i] = 0
    elif v < 0.5:
        labels[i] = 1
    else:
        labels[i] = 2


@wp.kernel
def class_counts(labels: wp.array(dtype=int), counts: wp.array(dtype=int)):
    wp.atomic_add(counts, labels[wp.tid()], 1)


x = wp.array(np.linspace(-1, 1, 21, dtype=np.float32))
labels = wp.zeros(21, dtype=int)
counts = wp.zeros(3, dtype=int)
wp.launch(classify, dim=21, inputs=[x, labels])
wp.launch(class_counts, dim=21, inputs=[labels, counts])
print(counts.numpy())
