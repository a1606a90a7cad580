"""python bench/hosts/python-to-dir.py SRC OUT TARGETS: one whole build through the Python
package (read, build, plan, write), what a `build_to_dir` caller waits for."""
import sys

import plugforge

src, out, targets = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
plugforge.build_to_dir(src, out, targets=targets)
