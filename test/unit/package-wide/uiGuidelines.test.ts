import {
	NodeHelpers,
	type INodeProperties,
	type INodePropertyCollection,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { ReviewScraperApi } from '../../../credentials/ReviewScraperApi.credentials';
import { ScrapingApi } from '../../../credentials/ScrapingApi.credentials';
import { packageNodes } from '../nodeClasses';

/**
 * n8n's UI guidelines for nodes ("Design your node's user interface" and "UX guidelines for
 * community nodes" on docs.n8n.io), read from what the package serves: every node (every version),
 * every field however deep (collections, fixed collections, resource locator modes), every option,
 * and both credentials.
 *
 * `npm run lint` (eslint-plugin-n8n-nodes-base) checks some of these points, but only on object
 * literals whose texts are string literals, in node files. It does not see fields that helpers or
 * tables build (most of ours: profile fields, filters, options, tool descriptions), nor credentials'
 * fields, and it has no rule for notices, input placeholders, button texts, hints, trigger panels,
 * date fields, resource locators, or the resource named in an operation's action and description.
 * Those are checked here, one test per rule; the last block shows that each rule can fail.
 */

// ---------------------------------------------------------------------------------------------
// What the editor shows, collected from a description

type Kind =
	| 'parameter name' // a field's label, a fixed collection section's, a resource locator mode's
	| 'option name' // a drop-down value
	| 'description' // a field's or option's tooltip / sub-text
	| 'hint'
	| 'notice' // an info box (its text is the displayName)
	| 'placeholder' // an input's example text
	| 'button' // a collection's or fixed collection's "Add …" button, a list field's button
	| 'action' // an operation's name in the nodes panel
	| 'tool description' // what a model reads about a tool (the field's default text)
	| 'node description'
	| 'trigger panel';

interface Site {
	owner: string;
	/** Parameter names from the top, e.g. `filters › rating › condition › operator`. */
	path: string;
	/** Shown in the newest version (a field an older version keeps for saved workflows is not). */
	newest: boolean;
	/** The resources (values of Resource) the field is shown for; empty: not tied to one. */
	resources: string[];
}

interface Text extends Site {
	kind: Kind;
	text: string;
}

interface Field extends Site {
	property: INodeProperties;
}

interface OptionList extends Site {
	property: INodeProperties;
	options: INodePropertyOptions[];
}

interface Model {
	owner: string;
	group: string[];
	texts: Text[];
	fields: Field[];
	optionLists: OptionList[];
}

interface Described {
	displayName: string;
	properties: INodeProperties[];
	version?: number | number[];
	defaultVersion?: number;
	description?: string;
	group?: string[];
	triggerPanel?: unknown;
}

const newestVersionOf = (described: Described) =>
	described.defaultVersion ??
	(Array.isArray(described.version) ? Math.max(...described.version) : (described.version ?? 1));

/** Whether a field's own `@version` conditions (and nothing else) let the given version show it. */
function shownInVersion(property: Pick<INodeProperties, 'displayOptions'>, version: number) {
	const { show, hide } = property.displayOptions ?? {};
	if (show?.['@version'] && !NodeHelpers.checkConditions(show['@version'], [version])) return false;
	if (hide?.['@version'] && NodeHelpers.checkConditions(hide['@version'], [version])) return false;
	return true;
}

const asStrings = (values: unknown[] | undefined) => (values ?? []).map(String);

function modelOf(described: Described): Model {
	const owner = described.displayName;
	const version = newestVersionOf(described);
	const model: Model = {
		owner,
		group: described.group ?? [],
		texts: [],
		fields: [],
		optionLists: [],
	};
	const text = (site: Site, kind: Kind, value: unknown) => {
		if (typeof value === 'string' && value !== '') model.texts.push({ ...site, kind, text: value });
	};

	function walk(properties: INodeProperties[], parent: Site | undefined) {
		for (const property of properties) {
			const site: Site = {
				owner,
				path: parent ? `${parent.path} › ${property.name}` : property.name,
				newest: (parent?.newest ?? true) && shownInVersion(property, version),
				resources: parent?.resources.length
					? parent.resources
					: asStrings(property.displayOptions?.show?.resource),
			};
			model.fields.push({ ...site, property });
			text(site, property.type === 'notice' ? 'notice' : 'parameter name', property.displayName);
			text(site, 'description', property.description);
			text(site, 'hint', property.hint);
			const buttonOrInput =
				property.type === 'collection' || property.type === 'fixedCollection'
					? 'button'
					: 'placeholder';
			text(site, buttonOrInput, property.placeholder);
			text(site, 'button', property.typeOptions?.multipleValueButtonText);
			if (property.displayOptions?.show?.['@tool'])
				text(site, 'tool description', property.default);
			for (const mode of property.modes ?? []) {
				const modeSite = { ...site, path: `${site.path} › (${mode.name})` };
				text(modeSite, 'parameter name', mode.displayName);
				text(modeSite, 'hint', mode.hint);
				// A list mode's placeholder is the search box's prompt, not an example value.
				if (mode.type !== 'list') text(modeSite, 'placeholder', mode.placeholder);
			}
			if (property.type === 'options' || property.type === 'multiOptions') {
				const options = (property.options ?? []) as INodePropertyOptions[];
				model.optionLists.push({ ...site, property, options });
				for (const option of options) {
					const optionSite = { ...site, path: `${site.path} = ${String(option.value)}` };
					text(optionSite, 'option name', option.name);
					text(optionSite, 'description', option.description);
					text(optionSite, 'action', option.action);
				}
			} else if (property.type === 'collection') {
				walk((property.options ?? []) as INodeProperties[], site);
			} else if (property.type === 'fixedCollection') {
				for (const section of (property.options ?? []) as INodePropertyCollection[]) {
					const sectionSite = { ...site, path: `${site.path} › ${section.name}` };
					text(sectionSite, 'parameter name', section.displayName);
					text(sectionSite, 'description', (section as { description?: string }).description);
					walk(section.values, sectionSite);
				}
			}
		}
	}

	walk(described.properties, undefined);
	const top: Site = { owner, path: '(node)', newest: true, resources: [] };
	text(top, 'node description', described.description);
	const panel = described.triggerPanel;
	if (panel && typeof panel === 'object') {
		for (const [key, value] of Object.entries(panel)) {
			const variants = typeof value === 'object' && value ? Object.entries(value) : [['', value]];
			for (const [variant, each] of variants)
				text(
					{ ...top, path: `(trigger panel) ${key}${variant ? `.${variant}` : ''}` },
					'trigger panel',
					each,
				);
		}
	}
	return model;
}

// ---------------------------------------------------------------------------------------------
// The rules

interface Violation {
	rule: Rule;
	owner: string;
	path: string;
	text: string;
}

const SMALL_WORDS = new Set(
	'a an and as at but by en for from if in into nor of on or per so than that the to up via vs with'.split(
		' ',
	),
);

/** Title case as n8n's lint's title-case package writes it: small words lower except at the ends. */
function isTitleCase(text: string): boolean {
	const words = text.split(/\s+/).filter(Boolean);
	return words.every((word, index) =>
		word.split('-').every((part) => {
			const letters = part.replace(/^[^\p{L}\p{N}]+/u, '');
			const first = letters.charAt(0);
			if (first === '' || first !== first.toLowerCase() || /\p{N}/u.test(first)) return true;
			if (/\p{Lu}/u.test(letters.slice(1))) return true; // a brand's own case: eBay
			const atEnd = index === 0 || index === words.length - 1;
			return !atEnd && SMALL_WORDS.has(letters.replace(/[^\p{L}]+$/u, '').toLowerCase());
		}),
	);
}

/** Sentences, as a reader counts them: "e.g." and "i.e." end none; HTML tags are not read. */
function sentencesOf(text: string): string[] {
	return text
		.replace(/<[^>]+>/g, ' ')
		.replace(/\b(e\.g|i\.e)\./g, '$1')
		.split(/[.!?](?:\s|$)/)
		.filter((sentence) => sentence.trim() !== '');
}

const plain = (text: string) => text.replace(/<[^>]+>/g, ' ').trim();

/** Starts as a sentence does: a capital, a number, a quote, or n8n's own lowercase name. */
const startsAsSentence = (text: string) => /^(["'(]?[\p{Lu}\p{N}]|n8n\b)/u.test(plain(text));

/** Every word capitalised, as a label is: what sentence case is not. */
const looksTitleCased = (text: string) => {
	const words = plain(text)
		.split(/\s+/)
		.filter((word) => /^\p{L}/u.test(word));
	return words.length >= 3 && words.every((word) => /^\p{Lu}/u.test(word));
};

const PROSE: Kind[] = [
	'description',
	'hint',
	'notice',
	'tool description',
	'node description',
	'trigger panel',
];

/** The texts n8n gives the tooltip rule: no final period for one sentence, one for several. */
const PUNCTUATED: Kind[] = [
	'description',
	'notice',
	'tool description',
	'node description',
	'trigger panel',
];

const RULES = {
	'title case': {
		guideline:
			'Parameter names, drop-down values and button texts in title case (lint: literal fields and options in node files only)',
		kinds: ['parameter name', 'option name', 'button'] as Kind[],
		broken: (text: string) => !isTitleCase(text),
	},
	'sentence case': {
		guideline:
			'Descriptions, hints, info boxes, tool descriptions and trigger panels in sentence case (lint: first letter of literal descriptions only)',
		kinds: PROSE,
		broken: (text: string) => !startsAsSentence(text) || looksTitleCased(text),
	},
	'action in sentence case': {
		guideline: "An operation's action in sentence case (lint: literal operation lists only)",
		kinds: ['action'] as Kind[],
		broken: (text: string) =>
			!startsAsSentence(text) ||
			text
				.split(/\s+/)
				.slice(1)
				.some((word) => /^\p{Lu}/u.test(word) && word !== word.toUpperCase()),
	},
	'final period': {
		guideline:
			'Tooltips and info boxes (and node, tool and trigger panel texts): no period after one sentence, one after several (lint: literal descriptions only, never notices)',
		kinds: PUNCTUATED,
		broken: (text: string) => {
			const ends = /[.!?]["')]?$/.test(plain(text));
			return sentencesOf(text).length > 1 ? !ends : /\.$/.test(plain(text));
		},
	},
	'notice length': {
		guideline: 'Info boxes of one or two sentences (no lint rule)',
		kinds: ['notice'] as Kind[],
		broken: (text: string) => sentencesOf(text).length > 2,
	},
	'placeholder example': {
		guideline: 'An input\'s placeholder is an example starting with "e.g." (no lint rule)',
		kinds: ['placeholder'] as Kind[],
		broken: (text: string) => !text.startsWith('e.g. '),
	},
	'button text': {
		guideline: 'A button that adds an entry says so: "Add …" (no lint rule)',
		kinds: ['button'] as Kind[],
		broken: (text: string) => !/^Add \S/.test(text),
	},
} as const;

const FIELD_RULES = {
	'whether for booleans': {
		guideline:
			'A boolean\'s description starts with "Whether" (lint: literal fields in node files only, Simplify excepted)',
	},
	'date fields': {
		guideline: 'A date is a dateTime field, in the newest version (no lint rule)',
	},
	'IDs from a list': {
		guideline:
			'Where the resource has a list (Get Many), its record is picked with a resource locator whose default mode is From List, in the newest version (no lint rule)',
	},
	'sorted options': {
		guideline:
			'A list of five or more options sorted alphabetically (lint: literal option lists only)',
	},
	'operation names the resource': {
		guideline: "An operation's action and description name its resource (no lint rule)",
	},
} as const;

type Rule = keyof typeof RULES | keyof typeof FIELD_RULES;

const wordsOf = (name: string) =>
	name
		.replace(/([a-z0-9])([A-Z])/g, '$1 $2')
		.toLowerCase()
		.split(/[^a-z0-9]+/);

function violationsOf(model: Model): Violation[] {
	const found: Violation[] = [];
	const report = (rule: Rule, site: Site, text: string) =>
		found.push({ rule, owner: site.owner, path: site.path, text });

	for (const [rule, { kinds, broken }] of Object.entries(RULES) as Array<
		[keyof typeof RULES, (typeof RULES)[keyof typeof RULES]]
	>) {
		for (const text of model.texts)
			if (kinds.includes(text.kind) && broken(text.text)) report(rule, text, text.text);
	}

	for (const field of model.fields) {
		const { property } = field;
		// Whether for booleans.
		if (
			property.type === 'boolean' &&
			property.description &&
			!property.description.startsWith('Whether')
		)
			report('whether for booleans', field, property.description);
		// Date fields: a field named or labelled as a date, or with a date format as example.
		const dated =
			wordsOf(property.name).includes('date') ||
			wordsOf(property.displayName).includes('date') ||
			/YYYY|DD\/MM|MM\/DD/.test(property.placeholder ?? '');
		if (field.newest && dated && property.type !== 'dateTime' && property.type !== 'notice')
			report('date fields', field, property.displayName);
	}

	// IDs from a list: the resources that offer Get Many, and the ID fields shown for them.
	const listed = new Set(
		model.optionLists
			.filter(({ property, newest }) => newest && property.name === 'operation')
			.filter(({ options }) =>
				options.some((option) => option.value === 'getAll' || option.name === 'Get Many'),
			)
			.flatMap(({ resources }) => resources),
	);
	const resourceList = model.optionLists.find(({ property }) => property.name === 'resource');
	const labelOf = (resource: string) =>
		resourceList?.options.find((option) => option.value === resource)?.name.toLowerCase();
	for (const field of model.fields) {
		const { property } = field;
		// The ID of the resource's own record ("Respond Job ID", scheduleId), not of something else
		// the record carries (a Google Place ID).
		const said = `${property.displayName} ${wordsOf(property.name).join(' ')}`.toLowerCase();
		const isId = /Id$/.test(property.name) || /\bID$/.test(property.displayName);
		const ofListed = field.resources.some(
			(resource) => listed.has(resource) && said.includes(labelOf(resource) ?? '\0'),
		);
		if (!field.newest || property.type === 'notice' || !isId || !ofListed) continue;
		const listMode = property.modes?.some((mode) => mode.type === 'list');
		if (property.type !== 'resourceLocator' || !listMode)
			report('IDs from a list', field, property.displayName);
	}
	for (const field of model.fields) {
		const { property } = field;
		const listMode = property.modes?.find((mode) => mode.type === 'list');
		const defaultMode = (property.default as { mode?: string } | undefined)?.mode;
		if (property.type === 'resourceLocator' && listMode && defaultMode !== listMode.name)
			report('IDs from a list', field, property.displayName);
	}

	for (const list of model.optionLists) {
		// Sorted options: n8n's lint sorts lists of five or more; ours are mostly built from tables.
		const names = list.options.map((option) => option.name);
		const sorted = [...names].sort((a, b) => a.localeCompare(b));
		if (names.length >= 5 && names.join('\n') !== sorted.join('\n'))
			report('sorted options', list, names.join(', '));
	}

	// Operation names the resource: the resource's own name in the action and the description.
	for (const list of model.optionLists.filter(({ property }) => property.name === 'operation')) {
		for (const resource of list.resources) {
			const label = labelOf(resource);
			if (!label) continue;
			for (const option of list.options) {
				const site = { ...list, path: `${list.path} = ${String(option.value)}` };
				for (const text of [option.action, option.description])
					if (text && !text.toLowerCase().includes(label))
						report('operation names the resource', site, text);
			}
		}
	}
	return found;
}

// ---------------------------------------------------------------------------------------------
// What the package serves

const credentials = [new ReviewScraperApi(), new ScrapingApi()];
const models: Model[] = [
	...packageNodes.map(({ node }) => modelOf(node.description as unknown as Described)),
	...credentials.map((credential) =>
		modelOf({ displayName: credential.displayName, properties: credential.properties }),
	),
];

const key = (v: Pick<Violation, 'rule' | 'owner' | 'path' | 'text'>) =>
	`${v.rule} | ${v.owner} | ${v.path} | ${v.text}`;
const unique = (violations: Violation[]) => [
	...new Map(violations.map((v) => [key(v), v])).values(),
];
const allViolations = unique(models.flatMap(violationsOf));

const describeViolations = (violations: Violation[]) =>
	violations.map(({ owner, path, text }) => `${owner}: ${path}: ${JSON.stringify(text)}`);

describe("n8n's UI guidelines, read from every node and credential description", () => {
	it('reads every node, every credential and their nested fields', () => {
		expect(models.map((model) => model.owner)).toEqual([
			...packageNodes.map(({ node }) => node.description.displayName),
			...credentials.map((credential) => credential.displayName),
		]);
		const texts = models.flatMap((model) => model.texts);
		// Nested fields are reached: a fixed collection's section inside a collection, its option.
		expect(texts.map((text) => text.path)).toContain(
			'filters › rating › condition › operator = gte',
		);
		// Every kind of text the rules read is found, so no rule passes for want of texts.
		const kinds = new Set(texts.map((text) => text.kind));
		for (const { kinds: read } of Object.values(RULES))
			for (const kind of read) expect([kind, kinds.has(kind)]).toEqual([kind, true]);
	});

	it.each([
		...Object.entries(RULES).map(([rule, { guideline }]) => [rule, guideline]),
		...Object.entries(FIELD_RULES).map(([rule, { guideline }]) => [rule, guideline]),
	])('%s: %s', (rule) => {
		const open = allViolations.filter((v) => v.rule === rule);
		expect(describeViolations(open)).toEqual([]);
	});
});

// ---------------------------------------------------------------------------------------------
// Each rule can fail: a description that breaks every one of them

describe('each rule catches what it is about', () => {
	const bad: Described = {
		displayName: 'Bad Node',
		version: [2, 1],
		description: 'Does things.',
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				options: [{ name: 'Ticket', value: 'ticket' }],
				default: 'ticket',
			},
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				displayOptions: { show: { resource: ['ticket'] } },
				options: [
					{ name: 'Get', value: 'get', description: 'Get one record', action: 'Get a Ticket' },
					{
						name: 'Get Many',
						value: 'getAll',
						description: 'Get many tickets',
						action: 'Get tickets',
					},
				],
				default: 'get',
			},
			{
				displayName: 'Ticket ID',
				name: 'ticketId',
				type: 'string',
				default: '',
				placeholder: '42',
				displayOptions: { show: { resource: ['ticket'] } },
			},
			{
				displayName: 'One. Two. Three.',
				name: 'longNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'more options',
				default: {},
				options: [
					{
						displayName: 'created after',
						name: 'createdAfterDate',
						type: 'string',
						default: '',
						description: 'lowercase start. And no final period',
					},
					{
						displayName: 'Archived',
						name: 'archived',
						type: 'boolean',
						default: false,
						description: 'Include Archived Tickets',
					},
					{
						displayName: 'Colour',
						name: 'colour',
						type: 'options',
						options: ['Red', 'Green', 'Blue', 'Cyan', 'Amber'].map((name) => ({
							name,
							value: name.toLowerCase(),
						})),
						default: 'red',
					},
				],
			},
		],
	};
	const caught = new Set(violationsOf(modelOf(bad)).map((v) => v.rule));

	it.each([...Object.keys(RULES), ...Object.keys(FIELD_RULES)])('%s', (rule) => {
		expect(caught).toContain(rule);
	});
});
