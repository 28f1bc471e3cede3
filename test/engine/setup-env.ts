import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// n8n-core writes a config file into the user folder on first use and logs every node error
// with its stack unless told otherwise.
process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'n8n-engine-'));
process.env.N8N_LOG_LEVEL ??= 'silent';
