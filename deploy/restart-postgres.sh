#!/usr/bin/env bash
# PostgreSQL's restart (docs/production.md#when-a-process-stops-or-dies), for an upgrade of its
# image or a change of its settings. Restarted under deliveries, it loses some: what n8n had queued
# or was running stays "new" or "running", and a crashed execution's retry may handle its job twice.
# So the front stops taking connections first (the service sends a refused delivery again), the
# executions already acknowledged run to their end, and the front opens again only once every n8n
# process is ready on the restarted database. test/e2e-queue/faults.test.ts runs these steps on the
# plain-process twin during a stream of deliveries and finds none lost.
# Usage, from the repository: bash deploy/restart-postgres.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

# What must end before PostgreSQL goes: executions saved and not yet ended (a waiting one is kept).
OPEN_EXECUTIONS_SQL="SELECT count(*) FROM execution_entity WHERE status IN ('new', 'running')"
N8N_SERVICES=(n8n n8n-webhook-1 n8n-webhook-2 n8n-worker-1 n8n-worker-2)
WEBHOOK_SERVERS=(n8n-webhook-1 n8n-webhook-2)

compose() { docker compose -f compose.yaml "$@"; }
# HAProxy's runtime API (haproxy.cfg's stats socket), from inside its container.
front() { compose exec -T haproxy sh -c "echo '$1' | nc 127.0.0.1 9999"; }
open_executions() { compose exec -T postgres psql -U n8n -d n8n -tAc "$OPEN_EXECUTIONS_SQL"; }
ready() {
	compose exec -T "$1" node -e \
		"fetch('http://127.0.0.1:5678/healthz/readiness').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
}

# Waits (bounded: 2 minutes) until the front's webhook server $1 meets the awk test $2 on its
# show stat row (columns: pxname, svname, qcur, qmax, scur, …, status is the 18th).
front_server() {
	for _ in $(seq 1 240); do
		front 'show stat' | awk -F, -v s="$1" "\$1 == \"n8n_webhooks\" && \$2 == s && ($2) { met = 1 } END { exit !met }" &&
			return 0
		sleep 0.5
	done
	echo "restart-postgres: the front's $1 did not get there ($2)" >&2
}
reopen() {
	for server in "${WEBHOOK_SERVERS[@]}"; do
		front "set server n8n_webhooks/$server state ready"
		front_server "$server" '$18 == "UP"'
	done
	front 'enable frontend n8n'
	echo 'restart-postgres: the front takes deliveries again'
}
# No new connection, and a request on a connection already open is answered 503.
front 'disable frontend n8n'
trap reopen EXIT
for server in "${WEBHOOK_SERVERS[@]}"; do front "set server n8n_webhooks/$server state maint"; done
echo 'restart-postgres: the front takes no delivery'
for server in "${WEBHOOK_SERVERS[@]}"; do front_server "$server" '$3 + $5 == 0'; done

# Bounded: 5 minutes. A leftover "new" or "running" execution (main's queue recovery marks it
# crashed within N8N_EXECUTIONS_QUEUE_RECOVERY_INTERVAL) must not hold the restart for good.
for _ in $(seq 1 300); do
	open="$(open_executions | tr -d '[:space:]')"
	[ "$open" = 0 ] && break
	sleep 1
done
[ "$open" = 0 ] || echo "restart-postgres: $open executions still open after 5 minutes; restarting anyway" >&2

compose restart postgres
for service in postgres "${N8N_SERVICES[@]}"; do
	for attempt in $(seq 1 120); do
		if [ "$service" = postgres ]; then
			compose exec -T postgres pg_isready -U n8n -d n8n >/dev/null && break
		else
			ready "$service" && break
		fi
		if [ "$attempt" = 120 ]; then
			echo "restart-postgres: $service is not ready after 4 minutes; the front stays closed" >&2
			trap - EXIT
			exit 1
		fi
		sleep 2
	done
done
echo 'restart-postgres: PostgreSQL and every n8n process are ready'
