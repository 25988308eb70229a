"""A small package written for the capture tests: kernels, and scripts that launch them."""
