#!/usr/bin/env bash
# Installs (once) the Node 24 and the pinned n8n that the e2e suite, the benches and `npm start` run.
# Prints the n8n executable's path on stdout; everything else goes to stderr.
# Usage: bash scripts/n8n-runtime.sh [--node-bin]   (--node-bin prints Node 24's bin folder instead)
# N8N_VERSION=<version> installs and prints that n8n instead of the pinned one (compatibility runs);
# each version has a cache folder of its own.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
N8N_VERSION="${N8N_VERSION:-$(tr -d '[:space:]' <"$ROOT/scripts/n8n-version")}"
# linkedom 0.18.15 depends on a package this registry lacks.
OVERRIDES='"linkedom": "0.18.14"'
# n8n 1.x takes xlsx from a tarball address outside the registry: use the registry's own release.
case "$N8N_VERSION" in 1.*) OVERRIDES="$OVERRIDES, \"xlsx\": \"0.18.5\"" ;; esac
NODE_MAJOR=24
CACHE="$ROOT/.cache"
NODE_DIR="$CACHE/node$NODE_MAJOR"
N8N_DIR="$CACHE/n8n-$N8N_VERSION"
MARKER="$N8N_DIR/.complete"
LOCK="$ROOT/scripts/n8n-locks/n8n-$N8N_VERSION.package-lock.json"

log() { printf '[n8n-runtime] %s\n' "$*" >&2; }

# npm prints nothing while it works when stderr is not a terminal (CI): show a heartbeat instead.
with_heartbeat() {
	local label="$1" dir="$2"
	shift 2
	local start=$SECONDS
	(
		while sleep 20; do
			if [ -n "$dir" ] && [ -d "$dir/node_modules" ]; then
				log "$label: $((SECONDS - start)) s, $(find "$dir/node_modules" -mindepth 1 -maxdepth 1 | wc -l) top-level packages so far"
			else
				log "$label: $((SECONDS - start)) s"
			fi
		done
	) &
	local beat=$!
	local rc=0
	"$@" >&2 || rc=$?
	kill "$beat" 2>/dev/null || true
	wait "$beat" 2>/dev/null || true
	[ "$rc" -eq 0 ] && log "$label: done in $((SECONDS - start)) s"
	return "$rc"
}

node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

find_node24() {
	local sys
	sys="$(command -v node || true)"
	if [ -n "$sys" ] && [ "$(node_major "$sys")" -ge "$NODE_MAJOR" ]; then
		dirname "$(readlink -f "$sys")"
		return
	fi
	local b
	for b in "$NODE_DIR"/node_modules/node/node_modules/node-*/bin "$NODE_DIR"/node_modules/node-*/bin; do
		if [ -x "$b/node" ] && [ "$(node_major "$b/node")" -eq "$NODE_MAJOR" ]; then
			echo "$b"
			return
		fi
	done
}

# The scripts below need install scripts (node@24's preinstall, sqlite3's compile): npm run passes
# the project's ignore-scripts (.npmrc) to what it starts, so each asks for them.
NODE_BIN="$(find_node24)"
if [ -z "$NODE_BIN" ]; then
	# Two first runs at once (npm start and npm test) install it once.
	mkdir -p "$CACHE"
	exec 7>"$CACHE/node$NODE_MAJOR.lock"
	flock 7
	NODE_BIN="$(find_node24)"
fi
if [ -z "$NODE_BIN" ]; then
	log "Node $(node -v 2>/dev/null || echo '(none)') is older than $NODE_MAJOR: installing npm package node@$NODE_MAJOR into .cache/node$NODE_MAJOR"
	mkdir -p "$NODE_DIR"
	[ -f "$NODE_DIR/package.json" ] || echo '{"private":true}' >"$NODE_DIR/package.json"
	with_heartbeat "node@$NODE_MAJOR" "$NODE_DIR" \
		npm install --prefix "$NODE_DIR" --ignore-scripts=false --no-audit --no-fund --loglevel=warn "node@$NODE_MAJOR"
	NODE_BIN="$(find_node24)"
	if [ -z "$NODE_BIN" ]; then
		# node@24 fetches its platform package in a preinstall script, which npm may be set to skip.
		platform="node-$(node -p 'process.platform + "-" + process.arch')"
		log "node@$NODE_MAJOR brought no binary: installing $platform@$NODE_MAJOR directly"
		npm install --prefix "$NODE_DIR" --no-audit --no-fund --loglevel=warn "$platform@$NODE_MAJOR" >&2
		NODE_BIN="$(find_node24)"
	fi
	[ -n "$NODE_BIN" ] || { log "no usable Node $NODE_MAJOR binary in .cache/node$NODE_MAJOR"; exit 1; }
fi
exec 7>&-
# The headers live next to bin/ (include/node): node-gyp needs that folder, not the machine's default.
NODE_HOME="$(dirname "$NODE_BIN")"
log "Node $("$NODE_BIN/node" -v) at $NODE_BIN"

if [ "${1:-}" = '--node-bin' ]; then
	echo "$NODE_BIN"
	exit 0
fi

# sqlite3's prebuilt download cannot work here: it is compiled against Node 24's headers.
build_sqlite_in() {
	with_heartbeat "npm rebuild sqlite3 in ${1##*/} (compiles from source)" '' \
		env npm_config_nodedir="$NODE_HOME" bash -c 'cd "$1" && npm rebuild sqlite3 --ignore-scripts=false --loglevel=warn' _ "$1"
}
sqlite_dir() { echo "$CACHE/sqlite3-$1-node-abi$("$NODE_BIN/node" -p process.versions.modules)"; }
# One build of a sqlite3 version for every n8n of .cache (a lock of its own, as n8n's below).
shared_sqlite() {
	local dir
	dir="$(sqlite_dir "$1")"
	mkdir -p "$dir"
	exec 8>"$dir.lock"
	flock 8
	[ -f "$dir/.complete" ] && return 0
	echo '{"private":true}' >"$dir/package.json"
	npm install --prefix "$dir" --ignore-scripts --no-audit --no-fund --loglevel=warn "sqlite3@$1" >&2
	build_sqlite_in "$dir"
	(cd "$dir" && "$NODE_BIN/node" -e "require('sqlite3')") >&2
	date -u +%FT%TZ >"$dir/.complete"
}

# One install of a version at a time: CI starts it in the background, and a test run that needs it
# meanwhile waits here, then finds it installed, instead of installing into the same folder.
mkdir -p "$CACHE"
exec 9>"$CACHE/n8n-$N8N_VERSION.lock"
if ! flock -n 9; then
	log "n8n $N8N_VERSION is being installed by another process: waiting for it"
	flock 9
fi

if [ -f "$MARKER" ] && [ -x "$N8N_DIR/node_modules/.bin/n8n" ]; then
	log "n8n $N8N_VERSION already installed in .cache/n8n-$N8N_VERSION"
else
	rm -f "$MARKER"
	mkdir -p "$N8N_DIR"
	cat >"$N8N_DIR/package.json" <<JSON
{
	"private": true,
	"dependencies": { "n8n": "$N8N_VERSION" },
	"overrides": { $OVERRIDES }
}
JSON
	export PATH="$NODE_BIN:$PATH"
	log "installing n8n $N8N_VERSION into .cache/n8n-$N8N_VERSION (about 5 minutes the first time)"
	# n8n pins sqlite3: its compile (100 s of CPU) runs while npm downloads n8n, once per version.
	sqlite_version="$(npm view "n8n@$N8N_VERSION" dependencies.sqlite3 2>/dev/null | tr -d '[:space:]')"
	sqlite_build=''
	if [ -n "$sqlite_version" ]; then
		shared_sqlite "$sqlite_version" &
		sqlite_build=$!
	fi
	# Install scripts stay off: the Kafka client's native build downloads sources and fails offline.
	# A version with a lock file in scripts/n8n-locks installs that tree (npm ci), the same every
	# day whatever the registry publishes, and without resolving n8n's dependencies again.
	if [ -f "$LOCK" ]; then
		cp "$LOCK" "$N8N_DIR/package-lock.json"
		with_heartbeat "npm ci n8n@$N8N_VERSION (scripts/n8n-locks)" "$N8N_DIR" \
			npm ci --prefix "$N8N_DIR" --ignore-scripts --no-audit --no-fund --loglevel=warn
	else
		log "no lock file for n8n $N8N_VERSION in scripts/n8n-locks: resolving its dependencies (copy .cache/n8n-$N8N_VERSION/package-lock.json there to keep this tree)"
		with_heartbeat "npm install n8n@$N8N_VERSION" "$N8N_DIR" \
			npm install --prefix "$N8N_DIR" --ignore-scripts --no-audit --no-fund --loglevel=warn
	fi
	installed_sqlite="$("$NODE_BIN/node" -p "require('$N8N_DIR/node_modules/sqlite3/package.json').version")"
	if [ -n "$sqlite_build" ] && wait "$sqlite_build" && [ "$installed_sqlite" = "$sqlite_version" ]; then
		rm -rf "$N8N_DIR/node_modules/sqlite3/build"
		cp -R "$(sqlite_dir "$sqlite_version")/node_modules/sqlite3/build" "$N8N_DIR/node_modules/sqlite3/build"
		log "sqlite3 $sqlite_version: copied the build of .cache/$(basename "$(sqlite_dir "$sqlite_version")")"
	else
		log "no shared build of sqlite3 $installed_sqlite for n8n $N8N_VERSION: building it here"
		build_sqlite_in "$N8N_DIR"
	fi
	(cd "$N8N_DIR" && "$NODE_BIN/node" -e "require('sqlite3')") >&2 ||
		{ log 'sqlite3 does not load under Node 24'; exit 1; }
	date -u +%FT%TZ >"$MARKER"
fi

echo "$N8N_DIR/node_modules/.bin/n8n"
