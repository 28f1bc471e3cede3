/**
 * Lets a test give n8n a service on a public-looking host name, while the simulator listens on
 * 127.0.0.1: names under PUBLIC_SERVICE_DOMAIN resolve to 127.0.0.1 in this process. `.example`
 * is reserved (RFC 2606), so without this file such a name resolves nowhere: nothing leaves the
 * machine either way. Loaded with `--require` in n8n's processes, and required by engine tests.
 */
const dns = require('node:dns');

const PUBLIC_SERVICE_DOMAIN = 'reviews-service.example';
const isMapped = (hostname) =>
	typeof hostname === 'string' &&
	(hostname === PUBLIC_SERVICE_DOMAIN || hostname.endsWith(`.${PUBLIC_SERVICE_DOMAIN}`));

const lookup = dns.lookup;
if (!lookup.publicServiceHost) {
	const mapped = function (hostname, options, callback) {
		if (!isMapped(hostname)) return lookup.apply(this, arguments);
		const done = typeof options === 'function' ? options : callback;
		const all = typeof options === 'object' && options !== null && options.all;
		if (all) process.nextTick(done, null, [{ address: '127.0.0.1', family: 4 }]);
		else process.nextTick(done, null, '127.0.0.1', 4);
	};
	mapped.publicServiceHost = true;
	dns.lookup = mapped;
}

module.exports = { PUBLIC_SERVICE_DOMAIN };
