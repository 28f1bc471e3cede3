import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { SECRET_QUERY_PARAMETER } from '../../redact';
import { secretsMatch } from '../../secretsMatch';

export { secretsMatch, SECRET_QUERY_PARAMETER };

export const SECRET_HEADER = 'x-callback-secret';

export type SecretLocation = 'query' | 'header';

/** What a delivery must carry to be received: the secret, and where the sender puts it. */
export interface SecretCheck {
	expected: string;
	location: SecretLocation;
}

/** Whether a delivery carries the expected secret where the trigger looks for it. */
export function carriesSecret(
	this: IWebhookFunctions,
	{ expected, location }: SecretCheck,
): boolean {
	const given =
		location === 'header'
			? this.getHeaderData()[SECRET_HEADER]
			: (this.getQueryData() as IDataObject)[SECRET_QUERY_PARAMETER];
	return secretsMatch(given, expected);
}

/** `url` with `secret` in its query, the one place the service sends back as given. */
export function withSecretQuery(url: string, secret: string): string {
	const separator = url.includes('?') ? '&' : '?';
	return `${url}${separator}${SECRET_QUERY_PARAMETER}=${secret}`;
}
