"""python bench/hosts/python.py SRC TARGETS RUNS: median ms of the Python build."""
import statistics, sys, time

import plugforge

src, targets, runs = sys.argv[1], sys.argv[2].split(","), int(sys.argv[3])
files = plugforge.read_tree(src)
times = []
for _ in range(runs):
    start = time.perf_counter()
    plugforge.build(files, targets=targets)
    times.append((time.perf_counter() - start) * 1000)
print(f"{statistics.median(times):.1f}")
