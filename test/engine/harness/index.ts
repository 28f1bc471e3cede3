// n8n's execution engine in-process, as test/engine uses it: one file per concern.
export { HarnessCredentialsHelper } from './credentialsHelper';
export { testCredential } from './credentialTest';
export type { NodeSpec } from './environment';
export { ResumeRefusedError, runWorkflow } from './run';
export { triggerHarness } from './trigger';
