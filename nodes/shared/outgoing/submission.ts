import type { IDataObject } from 'n8n-workflow';

import type { CallbackSource } from './callbackReachability';
import type { ServiceRequest } from './transport';

/**
 * The pipeline's terms (router.ts runs it): what an operation's submission is made of, for item
 * operations and batch operations (batches.ts) alike.
 */

export type ItemOutput = IDataObject | IDataObject[];

/**
 * What one output position holds and the retry memory keeps: an input item of an item operation,
 * or one profile of an Add Many item.
 */
export interface Entry {
	itemIndex: number;
	/** How messages name it: "item 3", or "profile 5 of item 0". */
	label: string;
	/** Its request alone: what its callback is checked in and its retry memory is keyed by. */
	request: ServiceRequest;
	callbackSource?: CallbackSource;
}

/** An entry refused before anything is sent, and what its error item carries besides the error. */
export interface RefusedEntry {
	error: unknown;
	extra?: IDataObject;
}

/** An entry whose output needs no request: read from its input item alone. */
export interface AnsweredEntry {
	output: ItemOutput;
}

/** One entry's part of an answer: accepted, or refused alone (an element of a batch's answer). */
export type EntryAnswer =
	{ accepted: unknown } | { refused: string; status?: unknown; answer: IDataObject };

/** How an operation's entries go to the service: all that differs between item and batch operations. */
export interface Submission<E extends Entry> {
	/** How messages call an entry: "item", "profile". */
	entryName: string;
	/** The entries of one input item, in order; a thrown error fails the whole item. */
	entriesOf(itemIndex: number): Array<E | RefusedEntry | AnsweredEntry>;
	/**
	 * A bad entry stops the run before anything is sent. Otherwise the entries before it are sent,
	 * as a one-by-one loop would have sent them.
	 */
	allOrNothing: boolean;
	/** Requests in flight at once. */
	concurrency: number;
	entriesPerRequest: number;
	request(entries: E[]): ServiceRequest;
	/** Each entry's part of a request's answer, in order; throws when the parts cannot be told. */
	answersOf(answer: unknown, entries: E[]): EntryAnswer[];
	toOutput(entry: E, answer: unknown): ItemOutput | Promise<ItemOutput>;
	/** How a stopped run names an entry the service accepted (with its id where there is one). */
	describeAccepted(entry: E, answer: unknown): string;
}
