#!/bin/sh
# Installs the Debian packages roofline needs to build and test — only those missing.
# Extra package names given as arguments are installed too (CI adds clang-format and, for the
# sanitizer and fuzz build, clang-14 libclang-rt-14-dev). Uses sudo when not run as root. Safe
# to run repeatedly.
set -eu

# ninja-build: both README commands build with the Ninja generator.
# libisal-dev: ISA-L's inflate for .gz traces (zlib's is used where it is absent).
# libiberty-dev: the demangler of mangled kernel names (a static archive, no runtime dependency).
# man-db, groff-base: the man page test renders it; zsh: the zsh completion test.
PACKAGES="build-essential cmake ninja-build nlohmann-json3-dev libcli11-dev libfmt-dev catch2 libyaml-cpp-dev zlib1g-dev libisal-dev libiberty-dev python3 python3-jsonschema libxml2-utils librsvg2-bin man-db groff-base zsh $*"

missing=""
for p in $PACKAGES; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1; then
  SUDO="sudo"
else
  echo "install-deps: need root or sudo to install:$missing" >&2
  exit 1
fi
echo "install-deps: installing$missing" >&2
$SUDO apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
