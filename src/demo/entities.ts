import { matchKey } from '../catalog/search/match-key.js';
import { words } from '../catalog/search/normalize-name.js';
import type { Companies, DemoCompany } from './companies.js';
import { REVIEWED_APART } from './entity-review.js';

/** The outcome of {@link mergeEntities}: merged companies' ids point at the company they became. */
export interface EntityMerge {
  /** Old company id → the id of the company it is now a listing of. */
  aliases: Map<string, string>;
  /** One line per merged company and per group of same-named companies kept apart, with why. */
  lines: string[];
  merged: number;
  keptApart: number;
}

const listingText = (c: DemoCompany) => c.listings.map((l) => `${l.ticker} on ${l.mic}`).join(', ');
const describe = (c: DemoCompany) => `${c.name} (${listingText(c)}${c.country === null ? '' : `, ${c.country}`})`;
const cikOf = (c: DemoCompany) => (c.key.startsWith('sec-cik:') ? c.key.slice('sec-cik:'.length) : null);
const shouting = (name: string) => name === name.toUpperCase() && name !== name.toLowerCase();

/** One spelling per legal form word, so "Limited" and "LTD" are the same form. */
const FORM_WORD: Readonly<Record<string, string>> = {
  limited: 'ltd',
  corporation: 'corp',
  company: 'co',
  incorporated: 'inc',
  publ: '',
  the: '',
};

/** The trailing legal form {@link matchKey} leaves out of a name ("corp de" of "WHIRLPOOL CORP /DE/"). */
function legalForm(name: string): string {
  // The SEC marks some names with their state of incorporation ("/DE/"): not a legal form.
  const bare = name.replace(/\s*\/[A-Z]{2}\/?\s*$/, '');
  const all = words(bare).filter((w) => w !== 'and');
  return all
    .slice(matchKey(bare).split(' ').length)
    .map((w) => FORM_WORD[w] ?? w)
    .filter((w) => w !== '')
    .join(' ');
}

/**
 * Names whose legal forms cannot be told to differ: the words of one form are all in the other's
 * ("Corp" and "Corp Oyj"), or one name gives none.
 */
const sameForm = (a: DemoCompany, b: DemoCompany) => {
  const [fa, fb] = [legalForm(a.name).split(' '), legalForm(b.name).split(' ')];
  return fa.every((w) => w === '' || fb.includes(w)) || fb.every((w) => w === '' || fa.includes(w));
};

/**
 * One company per entity (design §1.3): companies of the same normalized name (as the GHG match
 * reads names) and the same country are listings of one company. A company whose country no
 * source gives (the SEC's ticker list names none) is of the one country its namesakes have; where
 * they have several, or where its legal form differs from theirs (Castellum, Inc. is not
 * Castellum AB), or where a reviewer found them different issuers (entity-review.ts), it stays
 * apart, as do namesakes that are different SEC registrants (different CIKs). The company kept is the SEC registrant, if one is in the group (its filed figures keep
 * their company), else the first added; it takes the known country, a name not in capitals, and
 * the home listing (the first listing of the first company with a known country) as its primary.
 */
export function mergeEntities(companies: Companies): EntityMerge {
  const groups = new Map<string, DemoCompany[]>();
  for (const c of new Set(companies.byKey.values())) {
    if (c.listings.length === 0) continue;
    const key = matchKey(c.name);
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const result: EntityMerge = { aliases: new Map(), lines: [], merged: 0, keptApart: 0 };
  for (const [key, group] of [...groups].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    if (group.length < 2) continue;
    const countries = [...new Set(group.map((c) => c.country).filter((c) => c !== null))].sort();
    const sets = new Map<string, DemoCompany[]>();
    const known = group.filter((c) => c.country !== null);
    let formsDiffer = false;
    for (const c of group) {
      const joins =
        c.country === null && countries.length === 1 && !REVIEWED_APART.has(key) && known.every((k) => sameForm(k, c));
      if (c.country === null && countries.length === 1 && !joins) formsDiffer = true;
      const country = c.country ?? (joins ? countries[0] : undefined);
      const setKey = country ?? `unknown:${c.id}`;
      sets.set(setKey, [...(sets.get(setKey) ?? []), c]);
    }
    const apart: string[] = [];
    for (const [setKey, members] of sets) {
      if (members.length < 2) {
        const [only] = members;
        if (only !== undefined) apart.push(`${describe(only)}${setKey.startsWith('unknown:') ? ', country unknown' : ''}`);
        continue;
      }
      const ciks = new Set(members.map(cikOf).filter((c) => c !== null));
      if (ciks.size > 1) {
        result.keptApart += members.length;
        result.lines.push(
          `entities: "${key}" in ${setKey}: kept apart: ${members.length} different SEC registrants (CIK ${[...ciks].join(', ')}): ${members.map(describe).join('; ')}`,
        );
        continue;
      }
      const kept = members.find((c) => cikOf(c) !== null) ?? (members[0] as DemoCompany);
      const home = members.find((c) => c.country !== null) ?? kept;
      const others = members.filter((c) => c !== kept);
      const listings = [...home.listings, ...members.filter((c) => c !== home).flatMap((c) => c.listings)];
      for (const c of others) {
        result.lines.push(`entities: ${describe(c)}: merged into ${describe(kept)} (same name and country)`);
        result.aliases.set(c.id, kept.id);
        result.merged++;
      }
      kept.listings = listings;
      kept.country = home.country;
      if (shouting(kept.name)) kept.name = members.find((c) => !shouting(c.name))?.name ?? kept.name;
      for (const [k, c] of companies.byKey) if (others.includes(c)) companies.byKey.set(k, kept);
      apart.push(describe(kept));
    }
    if (apart.length > 1) {
      result.keptApart += apart.length;
      const registrants = new Set(group.map(cikOf).filter((c) => c !== null)).size;
      const why =
        REVIEWED_APART.get(key) ??
        (countries.length > 1
          ? `different countries (${countries.join(', ')})`
          : formsDiffer
            ? `different legal forms (${[...new Set(group.map((c) => legalForm(c.name) || 'none'))].join(' / ')})`
            : registrants === group.length
              ? 'different SEC registrants (different CIKs), no country given'
              : 'no country given to tell them apart');
      result.lines.push(`entities: "${key}": kept apart, ${why}: ${apart.join('; ')}`);
    }
  }
  return result;
}
