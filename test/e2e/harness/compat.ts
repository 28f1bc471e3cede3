import { n8nVersion } from './paths';

export function n8nMajor(): number {
	return Number(n8nVersion.split('.')[0]);
}

/**
 * How a waiting node's callback address proves itself: n8n 2.x signs the resume URL (and refuses a
 * wrong signature itself, 401); n8n 1.x does not, and the node adds its own token (a wrong one is
 * refused by the node, 422).
 */
export const resumeProof =
	n8nMajor() >= 2
		? { parameter: 'signature', refusedWith: 401 }
		: { parameter: 'resume_token', refusedWith: 422 };
