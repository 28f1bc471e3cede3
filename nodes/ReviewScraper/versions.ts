/**
 * The first version of Review Scraper with each change a saved workflow must not see: a workflow
 * keeps the version it was saved with (the versions listed in ReviewScraper.node.ts).
 */

/** Add Many reads each input item as a profile; version 1 reads the node's fields. */
export const AUTO_MAP_PROFILES_FROM = 1.1;
/** Wait for Completion's time limit as an amount and a unit; minutes before it. */
export const WAIT_TIME_LIMIT_IN_UNITS_FROM = 1.2;
/** Respond Job → Get picks the respond job from the account's list; a text ID before it. */
export const RESPOND_JOB_LOCATOR_FROM = 1.3;
