/**
 * When a document was disclosed, for ordering and for `year_of_disclosure`: its publication date;
 * when its source gives none (a GHG report, an ESEF report the index does not list: design §13.6,
 * §14.5), the year after the latest period it reports on. Stored documents write an unknown date
 * as ''; the answers show it as unknown, never as a made-up date.
 */
export function disclosureYear(publishedOn: string, documentPeriod: number): number {
  return publishedOn === '' ? documentPeriod + 1 : Number(publishedOn.slice(0, 4));
}

/**
 * A key that sorts documents in order of disclosure (compare as strings): the publication date;
 * an undated document at the start of its {@link disclosureYear}, so that it comes after every
 * document published in the year it reports on and before those of the year after.
 */
export function disclosureOrder(publishedOn: string, documentPeriod: number): string {
  return publishedOn === '' ? `${documentPeriod + 1}-00-00` : publishedOn;
}
