import tseslint from 'typescript-eslint';
import { configs as communityNodes } from '@n8n/eslint-plugin-community-nodes';

export default [
	{ ignores: ['dist/**', 'node_modules/**', '.cache/**', 'simulator/**', 'test/**', 'bench/**'] },
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts', 'package.json'],
		languageOptions: {
			parser: tseslint.parser,
			parserOptions: { extraFileExtensions: ['.json'] },
		},
		...communityNodes.recommended,
	},
];
