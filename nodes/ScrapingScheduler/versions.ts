/**
 * The first version of Scraping Scheduler with each change a saved workflow must not see: a
 * workflow keeps the version it was saved with (the versions listed in ScrapingScheduler.node.ts).
 */

/** Schedule → Create asks for the target API's own fields; raw parameters only before it. */
export const API_FIELDS_FROM = 1.1;
