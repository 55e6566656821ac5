/**
 * One problem with an input (a bundle file, a filing), reported as `file:line: message` (the header is line 1); line 0 is
 * the file or folder as a whole, reported as `file: message`.
 */
export interface ImportIssue {
  file: string;
  line: number;
  message: string;
}

export function formatIssue(issue: ImportIssue): string {
  return issue.line === 0 ? `${issue.file}: ${issue.message}` : `${issue.file}:${issue.line}: ${issue.message}`;
}

/** Thrown with every problem found; nothing was written. */
export class ImportError extends Error {
  constructor(readonly issues: readonly ImportIssue[]) {
    super(issues.map(formatIssue).join('\n'));
  }
}
