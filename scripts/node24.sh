#!/usr/bin/env bash
# Runs an npm script's command line under Node 24, which n8n 2.x, its engine in the tests and the
# dev tools here need. When the `node` on PATH is older (Node 20, as many machines come), Node 24's
# bin folder goes first on PATH: scripts/n8n-runtime.sh installs it once from the npm registry into
# .cache/node24. So `npm install && npm test` works with the Node a machine has.
# Usage, in package.json: bash scripts/node24.sh '<command line>' [arguments npm appends]
set -euo pipefail
version="$(node --version 2>/dev/null || echo v0)"
major="${version#v}"
major="${major%%.*}"
if [ "$major" -lt 24 ]; then
	echo "[node24] node $version is older than 24: running with Node 24 from .cache/node24" >&2
	bin="$(bash "$(dirname "${BASH_SOURCE[0]}")/n8n-runtime.sh" --node-bin)"
	export PATH="$bin:$PATH"
fi
command="$1"
shift
# What npm appends (`npm start -- --volume`) goes to the end of the command line, quoted as given.
exec bash -c "$command"' "$@"' node24 "$@"
