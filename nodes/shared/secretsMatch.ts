import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Constant-time comparison. Both sides are hashed first so that the comparison takes the same
 * time whatever the lengths, and a wrong guess reveals nothing about the secret's length either.
 */
export function secretsMatch(given: unknown, expected: string): boolean {
	if (typeof given !== 'string' || expected === '') return false;
	const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
	return timingSafeEqual(digest(given), digest(expected));
}
