import { isAbsolute, join, relative, resolve } from 'node:path';

/**
 * The path of a download named `name` in `dir`, refused (an Error) unless it lies inside `dir`:
 * the second guard behind names the sync issues itself, whatever a source sent.
 */
export function insideFolder(dir: string, name: string): string {
  const path = join(dir, name);
  const rel = relative(resolve(dir), resolve(path));
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
    throw new Error(`a download named ${JSON.stringify(name)} would leave its folder; refused`);
  }
  return path;
}
