/**
 * n8n's `legacy` expression engine, measured in the burst benches as a diagnostic only: it runs
 * expressions without the isolate that n8n 2.x takes for every community trigger's webhook call,
 * which shows how much of a burst's time that isolate takes. It is not a setting to run: n8n
 * 2.41.1 logs at start with it "The `legacy` expression engine runs expressions without
 * isolation, is no longer considered secure, and will be removed in a future version."
 * (docs/running-at-scale.md says so; the production stack is docs/production.md).
 */
export const LEGACY_ENGINE_ENV: Record<string, string> = { N8N_EXPRESSION_ENGINE: 'legacy' };

/** How the results name the setting (bench/results/full.json "setting"). */
export const LEGACY_ENGINE_LABEL = 'N8N_EXPRESSION_ENGINE=legacy';
