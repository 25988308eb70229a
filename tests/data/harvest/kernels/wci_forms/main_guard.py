import warp as wp


@wp.kernel
def guarded(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = 1.0


if __name__ == "__main__":
    raise SystemExit("the harvester must not run a file's main block")
