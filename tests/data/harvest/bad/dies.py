import os

os._exit(7)  # kills its process outright: no exception to catch
