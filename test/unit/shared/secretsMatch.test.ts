import { secretsMatch } from '../../../nodes/shared/secretsMatch';

it.each([
	['s3cret', 's3cret', true],
	['s3cret ', 's3cret', false],
	['', 's3cret', false],
	[undefined, 's3cret', false],
	[['s3cret'], 's3cret', false],
	['anything', '', false],
])('secretsMatch(%j, %j) is %s', (given, expected, result) => {
	expect(secretsMatch(given, expected)).toBe(result);
});
