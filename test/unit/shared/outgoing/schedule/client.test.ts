import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { mayMeanMissing } from '../../../../../nodes/shared/outgoing/schedule/client';

const node = { name: 'Trigger', type: 'test', typeVersion: 1, position: [0, 0] } as INode;
const refused = (httpCode: string) =>
	new NodeApiError(node, { message: 'schedule not found' }, { httpCode });

describe('mayMeanMissing', () => {
	it.each(['400', '403', '404', '410', '422'])('%s may mean missing: the list decides', (code) => {
		expect(mayMeanMissing(refused(code))).toBe(true);
	});

	it.each(['401', '429', '500', '503'])('%s does not', (code) => {
		expect(mayMeanMissing(refused(code))).toBe(false);
	});

	it('nor does an error without an answer', () => {
		expect(mayMeanMissing(new NodeOperationError(node, 'socket hang up'))).toBe(false);
		expect(mayMeanMissing(new Error('timeout'))).toBe(false);
	});
});
