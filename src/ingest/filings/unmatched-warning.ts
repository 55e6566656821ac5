/**
 * The warning for an ingest that read filers and neither matched nor added a company: it still
 * succeeds (nothing was wrong with the input), but the operator must learn that nothing was added
 * and why (design §19.1 adds a filer only for a figure it gives). Undefined when some filer
 * matched or was added, or none was read.
 */
function unmatchedWarning(command: string, summary: { filers: number; companies_matched: number; companies_added: number }) {
  if (summary.filers === 0 || summary.companies_matched > 0 || summary.companies_added > 0) return undefined;
  return `ingest ${command}: warning: none of the ${summary.filers} filers is a catalog company or gave an annual figure, so no company and no data point was added`;
}

/** Prints {@link unmatchedWarning} on stderr when there is one; the summary on stdout is unchanged. */
export function warnIfUnmatched(
  command: string,
  summary: { filers: number; companies_matched: number; companies_added: number },
): void {
  const warning = unmatchedWarning(command, summary);
  if (warning !== undefined) process.stderr.write(`${warning}\n`);
}
