const path = require('path');
const { task, src, dest } = require('gulp');

task('build:icons', copyIcons);

// n8n resolves `file:` icons relative to the compiled node/credential file, so each dist folder
// that references an icon gets a copy of the shared icons directory's files.
function copyIcons() {
	const nodeIcons = src(path.resolve('icons', '*.{png,svg}')).pipe(dest(path.resolve('dist', 'icons')));
	return nodeIcons;
}
