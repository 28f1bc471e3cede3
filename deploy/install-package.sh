#!/bin/sh
# Installs a packed n8n-nodes-review-scraping into an n8n nodes folder the way n8n 2.x's
# community-node installer installs a package (CommunityPackagesService.downloadPackage): the
# tarball unpacked into node_modules/<name>, its package.json without dev, peer and optional
# dependencies, `npm install` inside it with the installer's flags (no lock file, no scripts, no
# bin links), and the version recorded in the nodes folder's package.json, n8n's ledger.
# deploy/Dockerfile runs it, and so does every n8n the tests start (test/e2e/harness/package.ts).
# Usage: sh deploy/install-package.sh <n8n-nodes-review-scraping-x.y.z.tgz> <nodes folder>
set -eu
if [ "$#" -ne 2 ]; then
	echo "usage: $0 <package .tgz> <n8n nodes folder, e.g. ~/.n8n/nodes>" >&2
	exit 2
fi
tarball="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
nodes="$2"
name=n8n-nodes-review-scraping
target="$nodes/node_modules/$name"

rm -rf "$target"
mkdir -p "$target"
tar -xzf "$tarball" -C "$target" --strip-components=1
node -e '
const fs = require("node:fs");
const file = process.argv[1];
const { devDependencies, peerDependencies, optionalDependencies, ...manifest } = JSON.parse(
	fs.readFileSync(file, "utf8"),
);
fs.writeFileSync(file, JSON.stringify(manifest, null, 2));
' "$target/package.json"
(cd "$target" && npm install --audit=false --fund=false --bin-links=false \
	--install-strategy=shallow --ignore-scripts=true --package-lock=false --loglevel=error)
node -e '
const fs = require("node:fs");
const [ledgerFile, manifestFile, name] = process.argv.slice(1);
let ledger = { name: "installed-nodes", private: true, dependencies: {} };
try {
	const found = JSON.parse(fs.readFileSync(ledgerFile, "utf8"));
	if (found && found.dependencies) ledger = found;
} catch {}
ledger.dependencies[name] = JSON.parse(fs.readFileSync(manifestFile, "utf8")).version;
fs.writeFileSync(ledgerFile, JSON.stringify(ledger, null, 2));
' "$nodes/package.json" "$target/package.json" "$name"
