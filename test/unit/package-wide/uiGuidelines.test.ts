import {
	NodeHelpers,
	type INodeProperties,
	type INodePropertyCollection,
	type INodePropertyOptions,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { ReviewScraperApi } from '../../../credentials/ReviewScraperApi.credentials';
import { ScrapingApi } from '../../../credentials/ScrapingApi.credentials';
import { packageNodes } from '../nodeClasses';

/**
 * n8n's UI guidelines ("Design your node's user interface", "UX guidelines for community nodes")
 * that `npm run lint` has no rule for, read from every field however deep (collections, fixed
 * collections, resource locator modes) of every node and credential. Title case, sentence case,
 * final periods, "Whether" and sorted options are lint's rules. The last block shows each rule can fail.
 */
type Described = Pick<INodeTypeDescription, 'displayName' | 'properties'> &
	Partial<Pick<INodeTypeDescription, 'version' | 'defaultVersion'>>;

interface Field {
	path: string;
	property: INodeProperties;
	/** Shown in the newest version (a field kept for saved workflows of older versions is not). */
	newest: boolean;
	/** The resources (values of Resource) the field is shown for; empty: not tied to one. */
	resources: string[];
}

function fieldsOf({ properties, version = 1, defaultVersion }: Described): Field[] {
	const newestVersion = defaultVersion ?? Math.max(...[version].flat());
	const inNewest = ({ displayOptions }: INodeProperties) => {
		const { show, hide } = displayOptions ?? {};
		const shown = (conditions: unknown) =>
			NodeHelpers.checkConditions(conditions as never, [newestVersion]);
		return (
			(!show?.['@version'] || shown(show['@version'])) &&
			!(hide?.['@version'] && shown(hide['@version']))
		);
	};
	const walk = (list: INodeProperties[], parent?: Field): Field[] =>
		list.flatMap((property) => {
			const field: Field = {
				path: parent ? `${parent.path} › ${property.name}` : property.name,
				property,
				newest: (parent?.newest ?? true) && inNewest(property),
				resources: parent?.resources.length
					? parent.resources
					: (property.displayOptions?.show?.resource ?? []).map(String),
			};
			if (property.type === 'collection')
				return [field, ...walk(property.options as INodeProperties[], field)];
			if (property.type !== 'fixedCollection') return [field];
			const sections = property.options as INodePropertyCollection[];
			return [
				field,
				...sections.flatMap(({ name, values }) =>
					walk(values, { ...field, path: `${field.path} › ${name}` }),
				),
			];
		});
	return walk(properties);
}

const optionsOf = (property: INodeProperties) =>
	property.type === 'options' || property.type === 'multiOptions'
		? (property.options as INodePropertyOptions[])
		: [];
const isContainer = ({ type }: INodeProperties) =>
	type === 'collection' || type === 'fixedCollection';
const sentencesOf = (text: string) =>
	text
		.replace(/\b(e\.g|i\.e)\./g, '$1')
		.split(/[.!?](?:\s|$)/)
		.filter((sentence) => sentence.trim() !== '');
const wordsOf = (name: string) =>
	name
		.replace(/([a-z0-9])([A-Z])/g, '$1 $2')
		.toLowerCase()
		.split(/[^a-z0-9]+/);

/** Each resource's label in lower case, and the resources whose newest operations include Get Many. */
function resourcesOf(fields: Field[]) {
	const labels = new Map(
		fields
			.filter(({ property }) => property.name === 'resource')
			.flatMap(({ property }) => optionsOf(property))
			.map(({ value, name }) => [String(value), name.toLowerCase()]),
	);
	const withGetMany = fields
		.filter(({ property, newest }) => newest && property.name === 'operation')
		.filter(({ property }) => optionsOf(property).some(({ value }) => value === 'getAll'))
		.flatMap(({ resources }) => resources);
	return { labels, withGetMany };
}

/** A rule gives, for one field, the texts of it that break the rule (false and undefined: none). */
type Rule = (field: Field, node: ReturnType<typeof resourcesOf>) => unknown[];

const RULES: Array<[guideline: string, rule: Rule]> = [
	[
		'An info box says one or two sentences',
		({ property: p }) => [
			p.type === 'notice' && sentencesOf(p.displayName).length > 2 && p.displayName,
		],
	],
	[
		'An input\'s placeholder is an example starting with "e.g." (a list\'s search box excepted)',
		({ property: p }) =>
			[
				isContainer(p) ? '' : p.placeholder,
				...(p.modes ?? []).map((mode) => mode.type !== 'list' && mode.placeholder),
			].filter((text) => text && !text.startsWith('e.g. ')),
	],
	[
		'A button that adds an entry says "Add …"',
		({ property: p }) =>
			[isContainer(p) && p.placeholder, p.typeOptions?.multipleValueButtonText].filter(
				(text) => text && !/^Add \S/.test(text),
			),
	],
	[
		'A date is a dateTime field, in the newest version',
		({ property: p, newest }) => [
			newest &&
				!['dateTime', 'notice'].includes(p.type) &&
				(wordsOf(p.name).includes('date') ||
					wordsOf(p.displayName).includes('date') ||
					/YYYY|DD\/MM|MM\/DD/.test(p.placeholder ?? '')) &&
				p.displayName,
		],
	],
	[
		"The ID of a resource's own record, where the resource has Get Many, is picked From List",
		({ property: p, newest, resources }, { labels, withGetMany }) => {
			const said = `${p.displayName} ${wordsOf(p.name).join(' ')}`.toLowerCase();
			const ofListed = resources.some(
				(resource) => withGetMany.includes(resource) && said.includes(labels.get(resource) ?? '\0'),
			);
			const isId = /Id$/.test(p.name) || /\bID$/.test(p.displayName);
			const list = p.modes?.find((mode) => mode.type === 'list');
			const defaultMode = (p.default as { mode?: string } | undefined)?.mode;
			const needsList = newest && p.type !== 'notice' && isId && ofListed;
			return [((needsList && !list) || (list && defaultMode !== list.name)) && p.displayName];
		},
	],
	[
		"An operation's action and description name its resource",
		({ property: p, resources }, { labels }) =>
			p.name !== 'operation'
				? []
				: resources.flatMap((resource) =>
						optionsOf(p)
							.flatMap(({ action, description }) => [action, description])
							.filter((text) => text && !text.toLowerCase().includes(labels.get(resource) ?? '')),
					),
	],
	[
		"No label or description names the service's or n8n's internal identifiers",
		({ property: p }) =>
			[p.displayName, p.description].filter((text) =>
				/rsapi|riapi|spiderman-token|N8N_PAYLOAD_SIZE_MAX/.test(text ?? ''),
			),
	],
	[
		'No required number starts at 0',
		({ property: p }) => [p.type === 'number' && p.required && p.default === 0 && p.displayName],
	],
];

const broken = (described: Described, rule: Rule) => {
	const fields = fieldsOf(described);
	const node = resourcesOf(fields);
	return fields.flatMap((field) =>
		rule(field, node)
			.filter(Boolean)
			.map((text) => `${described.displayName}: ${field.path}: ${JSON.stringify(text)}`),
	);
};

const described: Described[] = [
	...packageNodes.map(({ node }) => node.description),
	...[new ReviewScraperApi(), new ScrapingApi()],
];

describe("n8n's UI guidelines that its lint does not check, on every node and credential", () => {
	it('reads nested fields: a fixed collection inside a collection', () => {
		const paths = described.flatMap(fieldsOf).map(({ path }) => path);
		expect(paths).toContain('filters › rating › condition › operator');
	});

	it.each(RULES)('%s', (_guideline, rule) => {
		expect(described.flatMap((each) => broken(each, rule))).toEqual([]);
	});
});

describe('each rule catches what it is about', () => {
	const field = (
		displayName: string,
		type: INodeProperties['type'],
		more: Partial<INodeProperties> = {},
	): INodeProperties => ({
		displayName,
		name: displayName.replace(/\W/g, ''),
		type,
		default: '',
		...more,
	});
	const forTickets = { displayOptions: { show: { resource: ['ticket'] } } };
	const bad: Described = {
		displayName: 'Bad Node',
		version: [2, 1],
		properties: [
			field('Resource', 'options', {
				name: 'resource',
				options: [{ name: 'Ticket', value: 'ticket' }],
			}),
			field('Operation', 'options', {
				...forTickets,
				name: 'operation',
				options: [
					{ name: 'Get', value: 'get', description: 'Get one record', action: 'Get a ticket' },
					{ name: 'Get Many', value: 'getAll', action: 'Get many tickets' },
				],
			}),
			field('Ticket ID', 'string', { ...forTickets, name: 'ticketId', placeholder: '42' }),
			field('One. Two. Three.', 'notice'),
			field('Limit', 'number', { default: 0, required: true }),
			field('Options', 'collection', {
				placeholder: 'more options',
				options: [
					field('Created After', 'string', { name: 'createdAfterDate' }),
					field('Token', 'string', { description: 'The spiderman-token' }),
				],
			}),
		],
	};

	it.each(RULES)('%s', (_guideline, rule) => {
		expect(broken(bad, rule).length).toBeGreaterThan(0);
	});
});
