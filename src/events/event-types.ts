/**
 * The events (design §20.3), each written in the transaction of the change it tells of: a
 * company-period's first figure in a dataset, a figure it did not hold before, a document becoming
 * processed, a company merged into another (§19.4). An event never carries a value: values stay bought.
 */
export const EVENT_TYPES = ['figure.published', 'figure.restated', 'filing.ingested', 'company.merged'] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export const isEventType = (s: string): s is EventType => (EVENT_TYPES as readonly string[]).includes(s);
