/**
 * The JSON body of a company-period, made once: it is the same for every caller, and re-serializing
 * it was a fair share of a repeat call's time. Keyed by the cached records list itself, so when the
 * data version moves and a dataset's cache is dropped, the bodies go with it (a WeakMap holds no list
 * alive). The records are the dataset's own, exactly the fields its schema declares.
 */
const bodies = new WeakMap<readonly unknown[], string>();

export function serializedRecords(records: readonly unknown[]): string {
  let body = bodies.get(records);
  if (body === undefined) {
    body = JSON.stringify(records);
    bodies.set(records, body);
  }
  return body;
}
