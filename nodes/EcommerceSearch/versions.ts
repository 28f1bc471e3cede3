/**
 * The first version of E-Commerce Search with each change a saved workflow must not see: a
 * workflow keeps the version it was saved with (the versions listed in EcommerceSearch.node.ts).
 */

/** Waited-for products come as one item, which n8n can link to the waiting input item. */
export const ONE_RESUMED_ITEM_FROM = 1.1;
/** Search: n8n's usual Return All / Limit at the top; Limit in Additional Fields before it. */
export const LIMIT_AT_TOP_LEVEL_FROM = 1.2;
/** Wait for Completion's time limit as an amount and a unit; minutes before it. */
export const WAIT_TIME_LIMIT_IN_UNITS_FROM = 1.2;
