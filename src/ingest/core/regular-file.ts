import { closeSync, constants, fstatSync, openSync, type Stats, statSync } from 'node:fs';
import { ImportError } from './issues.js';

/** What a path that is neither a regular file nor a folder is, for the refusal. */
function kindOf(stat: Stats): string {
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  if (stat.isDirectory()) return 'a folder';
  return 'of an unknown kind';
}

function refuse(path: string, message: string): never {
  throw new ImportError([{ file: path, line: 0, message }]);
}

/** `stat` (following symlinks), with a missing path or a dangling symlink refused by name. */
function statOf(path: string): Stats {
  try {
    return statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return refuse(path, code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? 'error'})`);
  }
}

/**
 * What an input path names: a folder, or a regular file (a symlink is followed to one). Anything
 * else is refused by name before it is opened: a device reads without end and a FIFO blocks the
 * open until a writer comes, and neither is an input a run can finish.
 */
export function inputKind(path: string): 'file' | 'folder' {
  const stat = statOf(path);
  if (stat.isDirectory()) return 'folder';
  if (stat.isFile()) return 'file';
  return refuse(path, `is not a regular file (${kindOf(stat)})`);
}

/**
 * Opens a regular file for reading: the one way every `ingest` and `import` input is opened.
 * The path is checked with `stat` first, then opened non-blocking (should it have been swapped
 * for a FIFO meanwhile, the open does not hang) and checked again on the open descriptor, which
 * is what is read. The caller closes `fd` (a read stream given it closes it at its end).
 */
export function openRegularFile(path: string): { fd: number; size: number } {
  const kind = inputKind(path);
  if (kind !== 'file') refuse(path, 'is not a regular file (a folder)');
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return refuse(path, `cannot be opened (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const stat = fstatSync(fd);
  if (!stat.isFile()) {
    closeSync(fd);
    refuse(path, `is not a regular file (${kindOf(stat)})`);
  }
  return { fd, size: stat.size };
}
