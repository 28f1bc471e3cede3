import type { IWebhookDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

/** The one webhook of a trigger: the service POSTs its deliveries to it. */
export function deliveryWebhook(
	path: string,
	extra: Partial<IWebhookDescription> = {},
): IWebhookDescription {
	return {
		...extra,
		name: 'default',
		httpMethod: 'POST',
		responseMode: 'onReceived',
		// Without it n8n answers with the literal text "firstEntryJson" instead of the node's answer.
		responseData: '',
		path,
	};
}

/** Answers a delivery with an error status; it starts nothing. */
export function refuseDelivery(
	this: IWebhookFunctions,
	status: number,
	message: string,
): IWebhookResponseData {
	this.getResponseObject().status(status).json({ message });
	return { noWebhookResponse: true };
}
