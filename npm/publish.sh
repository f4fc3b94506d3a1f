#!/usr/bin/env bash
# Publishes the npm packages that npm/build.mjs made in dist/npm/: the six
# platform packages first, then askbridge, so that no one installs a
# launcher whose binary is not there yet. Each with --provenance (it must
# run in GitHub Actions with id-token: write; release.yml runs it). A
# package whose version is on the registry already is skipped, so a rerun
# after a failure goes on where it stopped. A pre-release (1.2.0-rc.1)
# goes to the dist-tag "next", never to "latest"; a snapshot is refused.
#
#   npm/publish.sh             publish (NODE_AUTH_TOKEN or ~/.npmrc: a token that may)
#   npm/publish.sh --dry-run   npm checks each package; nothing is published
#
# DIST is GoReleaser's dist directory (default: dist). In GitHub Actions
# the version must be the tag's (GITHUB_REF_NAME without its v).
set -euo pipefail
cd "$(dirname "$0")/.."
dist=${DIST:-$PWD/dist}
dry=false
case ${1:-} in
  --dry-run) dry=true ;;
  '') ;;
  *) echo "npm/publish.sh: unknown argument $1 (only --dry-run)" >&2; exit 2 ;;
esac

version=$(node -p 'require(process.argv[1]).version' "$dist/metadata.json")
if ! $dry; then
  case $version in *-snapshot.*)
    echo "npm/publish.sh: $version is a snapshot (make dist): not published; tag a release instead" >&2; exit 1 ;;
  esac
  if [ "${GITHUB_REF_TYPE:-}" = tag ] && [ "v$version" != "$GITHUB_REF_NAME" ]; then
    echo "npm/publish.sh: the packages are $version, the tag is $GITHUB_REF_NAME" >&2; exit 1
  fi
fi
tag=latest
case $version in *-*) tag=next ;; esac

# name=tarball, platform packages first; every one must be there before
# anything is published.
pkgs=()
for p in linux-x64 linux-arm64 darwin-x64 darwin-arm64 win32-x64 win32-arm64; do
  pkgs+=("@askbridge/$p=$dist/npm/askbridge-$p-$version.tgz")
done
pkgs+=("askbridge=$dist/npm/askbridge-$version.tgz")
for e in "${pkgs[@]}"; do
  [ -f "${e#*=}" ] || { echo "npm/publish.sh: no ${e#*=}: run node npm/build.mjs (without --allow-missing)" >&2; exit 1; }
done

for e in "${pkgs[@]}"; do
  name=${e%%=*} tgz=${e#*=}
  if $dry; then
    echo "== $name@$version (dry run, dist-tag $tag)"
    npm publish --dry-run --access public --tag "$tag" "$tgz"
    continue
  fi
  if [ "$(npm view "$name@$version" version 2>/dev/null || true)" = "$version" ]; then
    echo "== $name@$version is on the registry already: skipped"
    continue
  fi
  echo "== $name@$version (dist-tag $tag)"
  npm publish --provenance --access public --tag "$tag" "$tgz"
done
