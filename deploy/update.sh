#!/usr/bin/env bash
# The production stack's update (docs/production.md#update): the image is built once, then each n8n
# process is replaced in turn, the next only once the one before is healthy again and back in the
# front's rotation. Deliveries keep arriving throughout: a webhook process is taken out of the
# front's rotation and left to finish what it holds before it stops (n8n's webhook process takes
# requests until it exits), and each process is given more time to finish its work than n8n's own
# 30-second shutdown (compose.yaml's stop_grace_period). test/e2e-queue/faults.test.ts runs this order on the plain-process twin during
# a burst of deliveries and finds none lost.
# Usage, from the repository after `git pull`:
#   npm install && rm -f *.tgz && npm run build && npm pack && bash deploy/update.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

# Main first (it runs the database migrations a new n8n brings), then the webhook processes, then
# each worker.
UPDATE_ORDER=(n8n n8n-webhook-1 n8n-webhook-2 n8n-worker-1 n8n-worker-2)
# The front takes a process back after two good checks a second apart (haproxy.cfg, rise 2).
FRONT_SETTLE_SECONDS=5
# Longer than n8n's graceful shutdown (30 s); compose.yaml's stop_grace_period says the same.
STOP_GRACE_SECONDS=40

compose() { docker compose -f compose.yaml "$@"; }
# HAProxy's runtime API (haproxy.cfg's stats socket), from inside its container.
front() { compose exec -T haproxy sh -c "echo '$1' | nc 127.0.0.1 9999"; }

# Waits until the front holds no request for webhook server $1 (bounded: 2 minutes).
wait_idle() {
	for _ in $(seq 1 240); do
		# show stat's columns: pxname, svname, qcur, qmax, scur, …
		if front 'show stat' | awk -F, -v s="$1" '$1 == "n8n_webhooks" && $2 == s { exit !($3 + $5 == 0) }'; then
			return 0
		fi
		sleep 0.5
	done
	echo "update: $1 still holds requests after 2 minutes; stopping it anyway" >&2
}

wait_healthy() {
	local container="$1" status=''
	for _ in $(seq 1 180); do
		status="$(docker inspect --format '{{.State.Health.Status}}' "$container" 2>/dev/null || true)"
		if [ "$status" = healthy ]; then
			sleep "$FRONT_SETTLE_SECONDS"
			return 0
		fi
		sleep 2
	done
	echo "update: $container is not healthy after 6 minutes ($status); stopping here" >&2
	exit 1
}

compose build n8n
for service in "${UPDATE_ORDER[@]}"; do
	if [[ "$service" == n8n-webhook-* ]]; then
		echo "update: $service (out of the front's rotation while it restarts)"
		front "set server n8n_webhooks/$service state drain"
		wait_idle "$service"
		compose up -d --no-deps --no-build "$service"
		wait_healthy "$(compose ps -q "$service")"
		front "set server n8n_webhooks/$service state ready"
	else
		echo "update: $service"
		compose up -d --no-deps --no-build "$service"
		wait_healthy "$(compose ps -q "$service")"
		# A worker's task runner follows it (a new runner image when the n8n version changed).
		if [[ "$service" == n8n-worker-* ]]; then
			compose up -d --no-deps "${service/worker/runner}"
		fi
	fi
done
# What compose.yaml no longer runs stops last, with the same grace: from a deploy/ before the task
# runners, the replicated n8n-worker, which kept running executions during the update.
compose up -d --no-build --remove-orphans --timeout "$STOP_GRACE_SECONDS"
echo 'update: every n8n process runs the new image'
