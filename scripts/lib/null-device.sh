# Sourced by scripts/setup and scripts/test. A program run as root that
# "atomically" writes /dev/null (a temporary file renamed over it) or unlinks
# it leaves a regular file there: every later `>/dev/null` appends to it and
# every `</dev/null` reads it back, and rustc's probe then fails to compile
# what a previous command wrote. The symptom names neither the culprit nor
# the device, so the device is checked by name.

null_device_ok() { [[ -c /dev/null ]]; }

# On a machine where an earlier run already broke it: put the device back
# when allowed to (root), else stop with what to run.
null_device_repair() {
  null_device_ok && return 0
  if [[ $(id -u) == 0 ]]; then
    echo "setup: /dev/null was a regular file, not the null device; recreated it (mknod /dev/null c 1 3)" >&2
    rm -f /dev/null && mknod -m 666 /dev/null c 1 3
  else
    echo "setup: /dev/null is not the null device; as root: rm -f /dev/null && mknod -m 666 /dev/null c 1 3" >&2
    return 1
  fi
}
