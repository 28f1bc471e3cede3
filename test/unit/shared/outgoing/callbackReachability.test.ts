import { unreachableHost } from '../../../../nodes/shared/outgoing/callbackReachability';

/** Which callback hosts a service on the internet cannot call, decided from the URL alone. */
describe('unreachableHost', () => {
	it.each([
		['http://localhost:5678/webhook-waiting/1', 'localhost', 'localhost'],
		['http://LOCALHOST./webhook/x', 'localhost', 'localhost'],
		['http://n8n.localhost/webhook/x', 'n8n.localhost', 'localhost'],
		['http://127.0.0.1:5678/webhook/x', '127.0.0.1', 'a loopback address'],
		['http://127.8.9.10/x', '127.8.9.10', 'a loopback address'],
		// new URL() turns decimal, octal and hexadecimal IPv4 forms into dotted decimal.
		['http://2130706433/x', '127.0.0.1', 'a loopback address'],
		['http://0177.0.0.1/x', '127.0.0.1', 'a loopback address'],
		['http://0x7f.1/x', '127.0.0.1', 'a loopback address'],
		['http://0.0.0.0:5678/x', '0.0.0.0', 'an address of this machine (0.0.0.0/8)'],
		['http://0/x', '0.0.0.0', 'an address of this machine (0.0.0.0/8)'],
		['http://10.1.2.3/x', '10.1.2.3', 'a private network address'],
		['http://172.16.0.1/x', '172.16.0.1', 'a private network address'],
		['http://172.31.255.255/x', '172.31.255.255', 'a private network address'],
		['http://192.168.1.10:5678/webhook/x', '192.168.1.10', 'a private network address'],
		['http://169.254.169.254/x', '169.254.169.254', 'a link-local address'],
		['http://100.64.0.1/x', '100.64.0.1', 'a shared address (100.64.0.0/10, carrier-grade NAT)'],
		[
			'http://100.127.255.255/x',
			'100.127.255.255',
			'a shared address (100.64.0.0/10, carrier-grade NAT)',
		],
		['http://10.0.0.1./x', '10.0.0.1', 'a private network address'],
		['http://[::1]:5678/x', '[::1]', 'a loopback address'],
		['http://[0:0:0:0:0:0:0:1]/x', '[::1]', 'a loopback address'],
		['http://[::]/x', '[::]', 'an address of this machine (::)'],
		['http://[::ffff:127.0.0.1]/x', '[::ffff:7f00:1]', 'a loopback address'],
		['http://[::ffff:192.168.0.5]/x', '[::ffff:c0a8:5]', 'a private network address'],
		['http://[FD12:3456::1]/x', '[fd12:3456::1]', 'a unique-local IPv6 address'],
		['http://[fc00::1]/x', '[fc00::1]', 'a unique-local IPv6 address'],
		['http://[fe80::1]:80/x', '[fe80::1]', 'a link-local address'],
		['http://n8n:5678/webhook/x', 'n8n', expect.stringMatching(/^a single-label name/)],
		['http://user:password@n8n/webhook/x', 'n8n', expect.stringMatching(/^a single-label name/)],
		['http://printer.local/x', 'printer.local', 'a name on a local network (.local)'],
		[
			'http://host.docker.internal:5678/x',
			'host.docker.internal',
			'a name on a local network (.internal)',
		],
		['http://router.home.arpa/x', 'router.home.arpa', 'a name on a local network (.home.arpa)'],
		['/webhook/x', '/webhook/x', 'not a full URL with a host'],
		['not a url', 'not a url', 'not a full URL with a host'],
	])('%s: %s is refused', (url, host, reason) => {
		expect(unreachableHost(url)).toEqual({ host, reason });
	});

	it.each([
		'https://hooks.example.com/webhook/x',
		'https://N8N.Example.COM./webhook-waiting/1?signature=abc',
		'http://8.8.8.8/x',
		'http://172.15.255.255/x',
		'http://172.32.0.1/x',
		'http://192.169.0.1/x',
		'http://100.63.255.255/x',
		'http://100.128.0.1/x',
		'http://169.253.0.1/x',
		'http://11.0.0.1/x',
		'http://[2001:db8::1]/x',
		'http://[2606:4700::1111]:8443/x',
		'http://[::ffff:8.8.8.8]/x',
		'http://[fec0::1]/x',
		'https://n8n.mycompany.io:5678/webhook/x',
		'https://localhost.example.com/x',
		'https://local.example.com/x',
	])('%s may be reached', (url) => {
		expect(unreachableHost(url)).toBeUndefined();
	});
});
