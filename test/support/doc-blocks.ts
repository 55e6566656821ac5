/**
 * The code blocks of a Markdown document, as test/docs.commands.test.ts reads them (its header
 * states the convention): fenced blocks, and indented blocks at the top level or inside list items.
 */

/** A code block and the HTML comment that marks it, if any. */
export interface DocBlock {
  /** 1-based line of the block's first line (its opening fence, or its first indented line). */
  line: number;
  /** The fence's language (`sh`, `ts`, …), `''` for an unlabelled fence, `null` for an indented block. */
  lang: string | null;
  /** The block's text, its indentation removed. */
  text: string;
  /** The marker on the line before the block (blank lines between allowed): `not-run`, `not-a-command`, `first-call`, … */
  marker: { name: string; reason: string } | null;
}

const FENCE = /^( {0,3}|\s*)(`{3,}|~{3,})\s*([\w-]*)/;
const LIST_ITEM = /^(\s*)([-*+]|[0-9]+[.)])(\s+)\S/;
const MARKER = /^\s*<!--\s*([a-z-]+)\s*:?\s*(.*?)\s*-->\s*$/;

const indentOf = (line: string): number => line.length - line.trimStart().length;

/** Shell blocks: fenced `sh`, `bash`, `shell`, `console` or unlabelled, and every indented block. */
export function isShellBlock(block: DocBlock): boolean {
  return block.lang === null || ['', 'sh', 'bash', 'shell', 'console'].includes(block.lang);
}

export function docBlocks(markdown: string): DocBlock[] {
  const lines = markdown.split('\n');
  const blocks: DocBlock[] = [];
  // The content column of the list item the text is in (0 outside lists): a code block in a list
  // item is indented 4 beyond it.
  let listColumn = 0;
  const markerBefore = (index: number): DocBlock['marker'] => {
    let i = index - 1;
    while (i >= 0 && (lines[i] ?? '').trim() === '') i--;
    const match = MARKER.exec(lines[i] ?? '');
    return match?.[1] === undefined ? null : { name: match[1], reason: match[2] ?? '' };
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const fence = FENCE.exec(line);
    if (fence?.[2] !== undefined) {
      const indent = indentOf(line);
      const close = fence[2];
      const body: string[] = [];
      let j = i + 1;
      while (j < lines.length && !(lines[j] ?? '').trimStart().startsWith(close)) {
        body.push((lines[j] ?? '').slice(Math.min(indent, indentOf(lines[j] ?? ''))));
        j++;
      }
      blocks.push({ line: i + 1, lang: fence[3] ?? '', text: body.join('\n'), marker: markerBefore(i) });
      i = j;
      continue;
    }
    if (line.trim() === '') continue;
    const previousBlank = i === 0 || (lines[i - 1] ?? '').trim() === '';
    const codeIndent = listColumn + 4;
    if (previousBlank && indentOf(line) >= codeIndent) {
      const body: string[] = [];
      let j = i;
      while (j < lines.length) {
        const l = lines[j] ?? '';
        if (l.trim() !== '' && indentOf(l) < codeIndent) break;
        body.push(l.slice(codeIndent));
        j++;
      }
      while (body.length > 0 && (body[body.length - 1] ?? '').trim() === '') body.pop();
      blocks.push({ line: i + 1, lang: null, text: body.join('\n'), marker: markerBefore(i) });
      i = j - 1;
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item !== null) listColumn = (item[1] ?? '').length + (item[2] ?? '').length + (item[3] ?? '').length;
    else if (indentOf(line) === 0 && previousBlank) listColumn = 0;
  }
  return blocks;
}
