const fs = require('fs');
const path = require('path');
const { task, src, dest, parallel } = require('gulp');

// A file removed or renamed in the sources must not stay in dist/ and be packed.
task('clean', (done) => {
	fs.rmSync(path.resolve('dist'), { recursive: true, force: true });
	done();
});

// Node and credential classes point at `file:` icons relative to their compiled file, and n8n reads
// each node's codex (.node.json) next to it: tsc copies neither.
function copyIcons() {
	return src(path.resolve('icons', '*.{png,svg}')).pipe(dest(path.resolve('dist', 'icons')));
}

function copyCodex() {
	return src('nodes/**/*.node.json', { base: '.' }).pipe(dest(path.resolve('dist')));
}

task('build:icons', parallel(copyIcons, copyCodex));
