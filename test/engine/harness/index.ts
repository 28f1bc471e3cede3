// n8n's execution engine in-process, as test/engine uses it: one file per concern.
export { HarnessCredentialsHelper } from './credentialsHelper';
export { testCredential } from './credentialTest';
export type { NodeSpec, RunWorkflowOptions } from './environment';
export { INPUT_NODE, type NodeTypeMap } from './nodeTypes';
export { chain, type HarnessRun, ResumeRefusedError, runWorkflow } from './run';
export { type ActiveTrigger, type TriggerHarness, triggerHarness } from './trigger';
export type { ResumeRequest } from './webhookRequest';
