import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

import * as ts from 'typescript';

/**
 * docs/errors.md lists every message a node, credential or trigger can show. The messages are
 * read from the code with TypeScript's parser: the message of each NodeOperationError and
 * NodeApiError, the problem given to a field check (`fail(field, problem)`, shown as
 * "<field> <problem> (item N)"), a trigger's refusals, and the `message` of every object literal
 * in those files (credential tests, service errors, execution hints). A template's `${…}` reads
 * as `…`. A message added to the code without an entry fails here.
 */

const root = join(__dirname, '..', '..', '..');
const catalogue = readFileSync(join(root, 'docs', 'errors.md'), 'utf8');

function sourcesUnder(folder: string): string[] {
	return readdirSync(join(root, folder)).flatMap((name) => {
		const path = `${folder}/${name}`;
		if (statSync(join(root, path)).isDirectory()) return sourcesUnder(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

/** A string or template literal as the user reads it, `${…}` as `…`; undefined for anything else. */
function literalText(node: ts.Node | undefined): string | undefined {
	if (!node) return undefined;
	if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
	if (ts.isTemplateExpression(node)) {
		return node.head.text + node.templateSpans.map((span) => `…${span.literal.text}`).join('');
	}
	return undefined;
}

const calleeName = (call: ts.CallExpression | ts.NewExpression): string => {
	const callee = call.expression;
	if (ts.isIdentifier(callee)) return callee.text;
	if (ts.isPropertyAccessExpression(callee)) {
		const target = callee.expression;
		return ts.isIdentifier(target) ? `${target.text}.${callee.name.text}` : callee.name.text;
	}
	return '';
};

/** Which argument of a call is the message the user reads. */
const MESSAGE_ARGUMENT: Record<string, number> = {
	NodeOperationError: 1,
	fail: 1,
	'read.fail': 1,
	'this.fail': 1,
	refusal: 1,
	'refuseDelivery.call': 2,
	invalidParameter: 3,
	transportError: 2,
};

interface Message {
	text: string;
	where: string;
}

function messagesOf(path: string): Message[] {
	const text = readFileSync(join(root, path), 'utf8');
	const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
	const found: Message[] = [];
	const add = (node: ts.Node | undefined) => {
		const message = literalText(node);
		if (message === undefined || node === undefined) return;
		const line = file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
		found.push({ text: message, where: `${relative(root, join(root, path))}:${line}` });
	};
	const visit = (node: ts.Node) => {
		if (ts.isNewExpression(node) || ts.isCallExpression(node)) {
			const name = calleeName(node);
			const index = MESSAGE_ARGUMENT[name] ?? MESSAGE_ARGUMENT[name.split('.').pop() ?? ''];
			if (index !== undefined) add(node.arguments?.[index]);
		}
		if (
			ts.isPropertyAssignment(node) &&
			ts.isIdentifier(node.name) &&
			node.name.text === 'message'
		) {
			add(node.initializer);
		}
		ts.forEachChild(node, visit);
	};
	visit(file);
	return found;
}

const messages = [...sourcesUnder('nodes'), ...sourcesUnder('credentials')].flatMap(messagesOf);
/** Punctuation the catalogue may write differently (quotes in code spans). */
const normalize = (text: string) => text.replace(/\s+/g, ' ').trim();
const catalogued = normalize(catalogue);

describe('docs/errors.md', () => {
	it('reads the messages of the code (the parse finds them)', () => {
		expect(messages.length).toBeGreaterThan(60);
		expect(messages.map((m) => m.text)).toContain('Invalid or missing callback secret');
		expect(messages.map((m) => m.text)).toContain(
			'Wait for Completion works with one input item, got …',
		);
	});

	it('has an entry for every message a node, credential or trigger can show', () => {
		const missing = messages
			.filter((message) => !catalogued.includes(normalize(message.text)))
			.map((message) => `${message.where}: "${message.text}"`);
		if (missing.length > 0) {
			throw new Error(
				`docs/errors.md has no entry for ${missing.length} message(s) of the code; add each, written ` +
					`as the code has it with "…" for a \${…} part, with what it means and what to do:\n` +
					missing.join('\n'),
			);
		}
	});
});
