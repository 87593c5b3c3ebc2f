#!/usr/bin/env bash
# Installs the real producers the project checks itself against:
#   clang-14                      (LLVM's NVPTX back end: CUDA C -> PTX)
#   nvidia-cuda-toolkit (non-free) ptxas, cuobjdump, nvdisasm, nvcc 11.8
# Debian bookworm ships nvcc 11.8; nvcc needs `-ccbin clang-14` here (Debian's
# gcc 12 is newer than nvcc 11.8 accepts).
# Idempotent: a second run changes nothing and says so.
set -euo pipefail

say() { printf 'install-toolchains: %s\n' "$*"; }
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

TOOLS=(clang-14 ptxas cuobjdump nvdisasm nvcc)
# clang finds the CUDA installation (and links libdevice from it) here.
LIBDEVICE=/usr/lib/cuda/nvvm/libdevice/libdevice.10.bc

have_all() {
  local t
  for t in "${TOOLS[@]}"; do command -v "$t" >/dev/null || return 1; done
  [ -f "$LIBDEVICE" ]
}

versions() {
  say "  $(command -v clang-14): $(clang-14 --version | head -n1)"
  local t
  for t in ptxas cuobjdump nvdisasm nvcc; do
    say "  $(command -v "$t"): $("$t" --version | grep -m1 -o 'V[0-9][0-9.]*')"
  done
  say "  libdevice: $LIBDEVICE"
}

if have_all; then
  say "already installed, nothing to do:"
  versions
  exit 0
fi

# Enable the contrib and non-free components (ptxas and friends live in
# non-free) in whichever apt sources format this system uses. Each component is
# added only to lines that lack it ("non-free-firmware" does not count as
# "non-free").
enable_component() { # FILE LINE-REGEX COMPONENT
  if grep -E "$2" "$1" | grep -qvE "[[:space:]]$3([[:space:]]|\$)"; then
    $SUDO sed -i -E "/$2/{/[[:space:]]$3([[:space:]]|\$)/!s/\$/ $3/}" "$1"
    say "enabled the $3 component in $1"
  fi
}
if [ -f /etc/apt/sources.list.d/debian.sources ]; then
  for c in contrib non-free; do enable_component /etc/apt/sources.list.d/debian.sources '^Components:' "$c"; done
elif [ -f /etc/apt/sources.list ]; then
  for c in contrib non-free; do enable_component /etc/apt/sources.list '^deb ' "$c"; done
else
  say "WARNING: no /etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list; not touching apt sources"
fi

say "apt-get update"
$SUDO apt-get update -qq
# The toolkit's license prompt is answered by debconf preseeding.
echo "nvidia-cuda-toolkit nvidia-cuda-toolkit/license note" | $SUDO debconf-set-selections 2>/dev/null || true
say "installing clang-14 nvidia-cuda-toolkit (large: about 3 GB unpacked)"
# (env, not a prefix assignment: sudo would drop DEBIAN_FRONTEND.)
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  clang-14 nvidia-cuda-toolkit >/dev/null

if have_all; then
  say "installed:"
  versions
else
  say "ERROR: install finished but something is missing:"
  for t in "${TOOLS[@]}"; do command -v "$t" >/dev/null || say "  missing $t"; done
  [ -f "$LIBDEVICE" ] || say "  missing $LIBDEVICE"
  exit 1
fi
