# Sourced by scripts/node-runtimes and scripts/python-runtimes: what both need
# to run programs built for the Linux platforms this machine is not (x86_64
# glibc): Debian packages from a suite's own apt list, musl loaders, and the
# arm64 multiarch libc for qemu-user.

apt_ready=
apt_install() { # PACKAGE...: installed on the machine when missing
  local missing=()
  for package in "$@"; do dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package"); done
  ((${#missing[@]})) || return 0
  [[ -n $apt_ready ]] || { apt-get update -qq; apt_ready=1; }
  apt-get install -y -qq "${missing[@]}" >/dev/null
}

# apt-get with a private list of SUITE (kept in CACHE: the machine's sources
# stay as they are), indexing both architectures whatever dpkg is set up for.
suite_apt() { # CACHE SUITE 'deb'|'deb-src' APT-GET-ARGS...
  local cache=$1 suite=$2 kind=$3
  shift 3
  mkdir -p "$cache/lists/partial" "$cache/cache/archives/partial"
  echo "$kind http://deb.debian.org/debian $suite main" >"$cache/sources.list"
  local options=(-o "Dir::Etc::SourceList=$cache/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o "Dir::State::Lists=$cache/lists" -o "Dir::Cache=$cache/cache" -o APT::Sandbox::User=root
    -o APT::Architectures::=amd64 -o APT::Architectures::=arm64)
  [[ -f $cache/updated ]] || { apt-get "${options[@]}" update -qq && touch "$cache/updated"; }
  (cd "$cache" && apt-get "${options[@]}" "$@")
}

MUSL_SUITE=trixie # musl 1.2.5: what zig's musl and the musllinux Node wheels are built against

# Debian's musl loader for ARCH (amd64|arm64) as DIR/musl-ARCH/LOADER_NAME.
musl_loader() { # DIR ARCH LOADER_NAME
  local out=$1/musl-$2
  [[ -f $out/$3 ]] && return 0
  step "musl loader ($MUSL_SUITE, $2)"
  local apt=$1/apt-$MUSL_SUITE
  mkdir -p "$apt" "$out"
  rm -f "$apt"/musl_*_"$2".deb
  suite_apt "$apt" "$MUSL_SUITE" deb download -qq "musl:$2"
  local unpacked
  unpacked=$(mktemp -d)
  dpkg-deb -x "$apt"/musl_*_"$2".deb "$unpacked"
  cp "$unpacked/usr/lib/$3" "$out/$3"
  rm -rf "$unpacked"
}

# qemu-user and Debian's arm64 libc (multiarch), for arm64 glibc programs.
arm64_glibc() { # [EXTRA_ARM64_PACKAGE...]
  apt_install qemu-user-static
  dpkg --print-foreign-architectures | grep -qx arm64 || { dpkg --add-architecture arm64; apt_ready=; }
  apt_install libc6:arm64 "$@"
}
