/** At most this many respellings of one query are tried: a long query would make dozens. */
export const MAX_RESPACINGS = 6;

/** What a respacing needs to know of the index's words. */
export interface Words {
  /** Whether a word is a word of some name. */
  isWord(word: string): boolean;
  /** Whether some name word starts with `prefix`. */
  isPrefix(prefix: string): boolean;
}

/**
 * The query's words spaced otherwise, as people type names they have only heard: two words run
 * together ("jp morgan" → "jpmorgan", "coca cola" → "cocacola"), letters typed apart run together
 * ("s a p" → "sap", "j p morgan" → "jp morgan"), every word run together ("j p morgan" → "jpmorgan"), and one word cut in two where both halves are
 * words of some name ("jpmorgan" → "jp morgan", "tmobile" → "t mobile"; the last half of the last
 * word may be a prefix, as the query's last word always may). Dots and apostrophes never part
 * words ("s.a.p.", "l'oreal"): {@link words} drops them. In a fixed order, without repeats and
 * without the query itself, at most {@link MAX_RESPACINGS}.
 */
export function respacings(query: readonly string[], vocabulary: Words): string[][] {
  const out: string[][] = [];
  const seen = new Set<string>([query.join(' ')]);
  const add = (ws: string[]) => {
    const key = ws.join(' ');
    if (out.length < MAX_RESPACINGS && !seen.has(key)) {
      seen.add(key);
      out.push(ws);
    }
  };
  // Runs of single letters, joined.
  let letters = false;
  const joinedLetters: string[] = [];
  for (const w of query) {
    const letter = [...w].length === 1;
    if (letter && letters) joinedLetters[joinedLetters.length - 1] += w;
    else joinedLetters.push(w);
    letters = letter;
  }
  if (joinedLetters.length < query.length) add(joinedLetters);
  // Every word joined ("j p morgan" → "jpmorgan"); for two words, the pair below.
  if (query.length > 2) add([query.join('')]);
  // Two neighbours joined.
  for (let i = 0; i + 1 < query.length; i++) {
    add([...query.slice(0, i), `${query[i]}${query[i + 1]}`, ...query.slice(i + 2)]);
  }
  // One word cut in two.
  for (let i = 0; i < query.length; i++) {
    const w = query[i] as string;
    const last = i === query.length - 1;
    for (let k = 1; k < w.length; k++) {
      const head = w.slice(0, k);
      const tail = w.slice(k);
      if (!vocabulary.isWord(head) || !(vocabulary.isWord(tail) || (last && vocabulary.isPrefix(tail)))) continue;
      add([...query.slice(0, i), head, tail, ...query.slice(i + 1)]);
    }
  }
  return out;
}
