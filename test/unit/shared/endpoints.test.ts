import type { IDataObject } from 'n8n-workflow';

import { ENDPOINTS, withRows, type EndpointTable } from '../../../nodes/shared/endpoints';
import {
	payloadId,
	payloadRecords,
	recognizePayload,
} from '../../../nodes/shared/incoming/callbackPayload';
import { readDelivery } from '../../../nodes/shared/incoming/trigger/delivery';
import { callbackKeys, REDACTED, redactEchoedSecrets } from '../../../nodes/shared/redact';
import { completedResults, oneResumedItem } from '../../../nodes/shared/waiting/declaration';

/**
 * A throwaway endpoint with a callback, declared in memory as a contributor would add its row:
 * a kind of its own (its shape, id field and records list) and a callback key of its own.
 */
const withTickets: EndpointTable = withRows(ENDPOINTS, {
	callbackKinds: [
		{
			value: 'ticketAudit',
			name: 'Ticket Audit',
			shapes: [{ has: ['ticket_id', 'tickets'], lacks: ['request_id'] }],
			idField: 'ticket_id',
			records: 'tickets',
		},
	],
	endpoints: [
		{
			api: 'review',
			method: 'POST',
			path: '/api/v2/tickets/audit',
			answersWith: 'ticket_id',
			callbacks: ['ticketAudit'],
			callbackKeys: ['notify_to'],
		},
	],
});

const SECRET = 'tr0wAway-s3cret';

const ticketDelivery = (): IDataObject => ({
	ticket_id: 'T-9',
	status: 'completed',
	tickets: [{ subject: 'a' }, { subject: 'b' }, { subject: 'c' }],
	echo: { notify_to: `https://n8n.example.com/webhook/t/callback?secret=${SECRET}` },
});

let scopes = 0;
/** The trigger's settings; each call a node of its own, as deliveries are remembered per node. */
const settings = (kinds: string[] = []) => ({
	kinds,
	completedOnly: false,
	dedupe: true,
	dedupeWindow: 100,
	splitResults: false,
	scope: `workflow:node-${++scopes}`,
	memory: {},
	endpoints: withTickets,
});

describe('a throwaway endpoint declared only as table rows', () => {
	it('is read by its rows: its kind, id field and records list, unknown without them', () => {
		expect(recognizePayload(ticketDelivery())).toBe('unknown');
		expect(JSON.stringify(redactEchoedSecrets(ticketDelivery()))).toContain(SECRET);
		expect(recognizePayload(ticketDelivery(), withTickets)).toBe('ticketAudit');
		expect(payloadId(ticketDelivery(), withTickets)).toBe('T-9');
		expect(payloadRecords(ticketDelivery(), withTickets)).toHaveLength(3);
	});

	it("the trigger's reading tells its kind, id and records, and hides its callback's secret", () => {
		const reading = readDelivery(ticketDelivery(), settings());
		expect('items' in reading && reading.items).toEqual([
			expect.objectContaining({
				kind: 'ticketAudit',
				id: 'T-9',
				outcome: 'completed',
				recordCount: 3,
			}),
		]);
		expect(JSON.stringify(reading)).not.toContain(SECRET);
		expect(JSON.stringify(reading)).toContain(`secret=${REDACTED}`);
	});

	it('the trigger splits its records, filters on its kind and drops its repeats by its id', () => {
		const node = settings(['ticketAudit']);
		const split = readDelivery(ticketDelivery(), { ...node, splitResults: true });
		expect('items' in split && split.items.map(({ record }) => record)).toEqual(
			ticketDelivery().tickets,
		);
		expect(readDelivery(ticketDelivery(), node)).toEqual({ duplicate: true });
		expect(readDelivery(ticketDelivery(), settings(['reviewJob']))).toEqual({
			ignored: 'ticketAudit',
		});
	});

	it('Wait for Completion resumes on the id its endpoint answers with, records counted', () => {
		const row = withTickets.endpoints.find(({ callbacks }) => callbacks?.includes('ticketAudit'));
		expect(row?.answersWith).toBe('ticket_id');
		const [item] = completedResults(oneResumedItem(ticketDelivery(), withTickets));
		expect(item).toMatchObject({ ticket_id: 'T-9', result_count: 3, wait_status: 'completed' });
		expect(oneResumedItem(ticketDelivery())[0].result_count).toBe(0);
	});

	it('the redaction hides the secret under its callback key, anywhere in a value', () => {
		const keys = callbackKeys(withTickets);
		const redacted = redactEchoedSecrets({ list: [ticketDelivery()] }, keys);
		expect(JSON.stringify(redacted)).not.toContain(SECRET);
		expect(redacted.list[0].echo).toEqual({
			notify_to: `https://n8n.example.com/webhook/t/callback?secret=${REDACTED}`,
		});
	});
});

describe('the endpoint table', () => {
	it('declares each endpoint and kind once, and names only kinds it declares', () => {
		const kinds = ENDPOINTS.callbackKinds.map(({ value }) => value);
		const named = ENDPOINTS.endpoints.flatMap(({ callbacks = [] }) => callbacks);
		expect(named.filter((kind) => !kinds.includes(kind))).toEqual([]);
		expect(new Set(kinds).size).toBe(kinds.length);
		expect(kinds).not.toContain('unknown');
		const rows = ENDPOINTS.endpoints.map(({ api, method, path }) => `${api} ${method} ${path}`);
		expect(new Set(rows).size).toBe(rows.length);
	});

	it('gives every endpoint that calls back a key its callback address goes in', () => {
		const silent = ENDPOINTS.endpoints.filter(
			({ callbacks, callbackKeys: keys }) => callbacks?.length && !keys?.length,
		);
		expect(silent).toEqual([]);
		expect([...callbackKeys(ENDPOINTS)].sort()).toEqual([
			'callback',
			'callbackUrl',
			'callback_url',
		]);
	});

	it('is left as it was by the rows added to it', () => {
		expect(withTickets.callbackKinds).toHaveLength(ENDPOINTS.callbackKinds.length + 1);
		expect(JSON.stringify(ENDPOINTS)).not.toMatch(/ticket/i);
	});
});
