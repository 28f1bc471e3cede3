import js from '@eslint/js';
import { globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

// Tests, the simulator, the bench and scripts are not published: they read files, spawn n8n and
// print, which n8n's rules for node code forbid. They get the language rules only. Each of their
// folders points its eslint.config.mjs here; `npm run lint` turns on ESLint's per-folder config
// lookup (the default from ESLint 10), so the root config stays n8n's default, as strict mode asks.
export default tseslint.config(globalIgnores(['**/*.json']), {
	files: ['**/*.ts'],
	extends: [js.configs.recommended, tseslint.configs.recommended],
	rules: {
		// Tests load the built dist/ files by path, as n8n does, and read JSON answers loosely.
		'@typescript-eslint/no-require-imports': 'off',
		'@typescript-eslint/no-explicit-any': 'off',
		'@typescript-eslint/no-unused-vars': [
			'error',
			{ argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
		],
	},
});
