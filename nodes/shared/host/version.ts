import { contextCustomData } from './customData';

/**
 * The one n8n version probe: whether this n8n is 2.x, told by what its contexts offer rather than
 * by a version number a node cannot read. n8n 2.0 gave every node context its own custom data
 * (read in 2.41.1); 1.x has none there (1.123.81). What differs with it, where this package
 * relies on the difference:
 * - the error output keeps an item's `details` (errorOutput.ts);
 * - a resumed node fails through its resume entry's `resumeError` (executeData.ts).
 * A context with no execution behind it reads as 1.x: it has neither an error output nor a resume.
 */
export function isN8n2(context: object): boolean {
	return contextCustomData(context) !== undefined;
}
