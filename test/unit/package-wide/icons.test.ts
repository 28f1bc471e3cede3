import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { packageNodes as nodes, repoRoot as root } from '../nodeClasses';

describe('icons', () => {
	const iconPaths = nodes.map(({ folder, node }) => {
		const icon = node.description.icon as { light: string; dark: string };
		const file = (path: string) => resolve(root, 'nodes', folder, path.replace(/^file:/, ''));
		return { name: node.description.name, light: file(icon.light), dark: file(icon.dark) };
	});

	it('gives every node its own light and dark SVG', () => {
		for (const { light, dark } of iconPaths) {
			expect(light).toMatch(/\.svg$/);
			expect(dark).toBe(light.replace(/\.svg$/, '.dark.svg'));
			expect([light, existsSync(light)]).toEqual([light, true]);
			expect([dark, existsSync(dark)]).toEqual([dark, true]);
		}
		const lights = iconPaths.map(({ light }) => readFileSync(light, 'utf8'));
		expect(new Set(lights).size).toBe(nodes.length);
	});

	it.each(nodes.map(({ node }) => node.description.name))(
		'%s: square viewBox, no script or embedded image, light and dark drawn alike in other colours',
		(name) => {
			const { light, dark } = iconPaths.find((icon) => icon.name === name)!;
			const [lightSvg, darkSvg] = [light, dark].map((path) => readFileSync(path, 'utf8'));
			for (const svg of [lightSvg, darkSvg]) {
				const [, , , width, height] = /viewBox="(\S+) (\S+) (\S+) (\S+)"/.exec(svg) ?? [];
				expect(width).toBeDefined();
				expect(width).toBe(height);
				expect(svg).not.toMatch(/<script|<image|href=|<text/i);
			}
			expect(darkSvg).not.toBe(lightSvg);
			const shapes = (svg: string) => svg.replace(/#[0-9a-f]{3,6}/gi, '#');
			expect(shapes(darkSvg)).toBe(shapes(lightSvg));
		},
	);
});
