import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { packageNodes as nodes, repoRoot as root } from '../nodeClasses';

const icons = nodes.map(({ folder, node }) => {
	const { light, dark } = node.description.icon as { light: string; dark: string };
	const svg = (path: string) => [
		path,
		readFileSync(resolve(root, 'nodes', folder, path.replace(/^file:/, '')), 'utf8'),
	];
	return [node.description.name, svg(light), svg(dark)] as const;
});

describe('icons', () => {
	it('gives every node its own light and dark SVG', () => {
		for (const [, [light], [dark]] of icons)
			expect([light, dark]).toEqual([
				expect.stringMatching(/\.svg$/),
				light.replace(/\.svg$/, '.dark.svg'),
			]);
		expect(new Set(icons.map(([, [, light]]) => light)).size).toBe(nodes.length);
	});

	it.each(icons)(
		'%s: square viewBox, no script or embedded image, light and dark drawn alike in other colours',
		(_name, [, light], [, dark]) => {
			for (const svg of [light, dark]) {
				const [, , , width, height] = /viewBox="(\S+) (\S+) (\S+) (\S+)"/.exec(svg) ?? [];
				expect([width !== undefined, width]).toEqual([true, height]);
				expect(svg).not.toMatch(/<script|<image|href=|<text/i);
			}
			expect(dark).not.toBe(light);
			const shapes = (svg: string) => svg.replace(/#[0-9a-f]{3,6}/gi, '#');
			expect(shapes(dark)).toBe(shapes(light));
		},
	);
});
