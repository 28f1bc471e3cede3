-- Holds n8n's execution queue (Bull's "jobs" queue) for every worker at once, or releases it, the
-- way Bull's own global pause does: queued jobs move from the wait list to the paused list, where
-- no worker takes them, and jobs queued meanwhile go there too (Bull queues into the paused list
-- while meta-paused is set). deploy/update.sh holds the queue while a worker stops, so that the
-- stopping worker takes no job it would not run (n8n fails such a job as stalled, never to run).
-- Usage: redis-cli EVAL "$(cat queue-hold.lua)" 5 <wait> <paused> <meta-paused> <event> <meta> hold
--   keys of a hold: bull:jobs:wait bull:jobs:paused bull:jobs:meta-paused bull:jobs:paused bull:jobs:meta
--   of a release:   bull:jobs:paused bull:jobs:wait bull:jobs:meta-paused bull:jobs:resumed bull:jobs:meta
local from, to, metaPaused, event, meta = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local hold = ARGV[1] == 'hold'
-- A RENAME onto a list that exists would drop that list's jobs: move them one by one then, the
-- oldest first, behind what is there.
if redis.call('EXISTS', to) == 0 then
	if redis.call('EXISTS', from) == 1 then
		redis.call('RENAME', from, to)
	end
else
	while redis.call('RPOPLPUSH', from, to) do
	end
end
if hold then
	redis.call('SET', metaPaused, 1)
	redis.call('HSET', meta, 'paused', 1)
else
	redis.call('DEL', metaPaused)
	redis.call('HDEL', meta, 'paused')
end
redis.call('PUBLISH', event, hold and 'paused' or 'resumed')
return redis.call('LLEN', to)
