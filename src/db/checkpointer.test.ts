import { mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkpointInBackground } from './checkpointer.js';
import { connect, type Db } from './connect.js';

describe('background checkpoints (SQLite)', () => {
  const dirs: string[] = [];
  const opened: Db[] = [];
  afterEach(async () => {
    for (const db of opened.splice(0)) await db.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const open = (): { db: Extract<Db, { dialect: 'sqlite' }>; path: string } => {
    const dir = mkdtempSync(join(tmpdir(), 'corpdata-checkpoint-'));
    dirs.push(dir);
    const path = join(dir, 'db.sqlite');
    const db = connect({ kind: 'sqlite', path });
    opened.push(db);
    if (db.dialect !== 'sqlite') throw new Error('not SQLite');
    db.sqlite.exec('create table filler (id integer primary key, v blob not null)');
    return { db, path };
  };
  const threshold = (db: Extract<Db, { dialect: 'sqlite' }>) => db.sqlite.pragma('wal_autocheckpoint', { simple: true });

  it('copies the log into the database file while the serving connection only commits', async () => {
    const { db, path } = open();
    const errors: Error[] = [];
    const checkpoints = checkpointInBackground(db.sqlite, (e) => errors.push(e));
    expect(threshold(db)).toBe(10_000);
    const before = statSync(path).size;
    // About 600 pages in 150 commits: far below the serving connection's own threshold now.
    const insert = db.sqlite.prepare('insert into filler (v) values (?)');
    for (let i = 0; i < 150; i++) db.sqlite.transaction(() => insert.run(Buffer.alloc(16_000, i)))();
    const deadline = Date.now() + 5_000;
    while (statSync(path).size < before + 2_000_000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(statSync(path).size).toBeGreaterThanOrEqual(before + 2_000_000);
    await checkpoints?.stop();
    expect(threshold(db)).toBe(1_000);
    expect(errors).toEqual([]);
  });

  it('gives the checkpoints back to the serving connection when its worker fails', async () => {
    const { db, path } = open();
    // The worker opens the database by its name: moved away, it cannot.
    renameSync(path, `${path}.moved`);
    const errors: Error[] = [];
    const checkpoints = checkpointInBackground(db.sqlite, (e) => errors.push(e));
    const deadline = Date.now() + 5_000;
    while (errors.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(errors).toHaveLength(1);
    expect(threshold(db)).toBe(1_000);
    await checkpoints?.stop();
  });

  it('has nothing to do for an in-memory database', async () => {
    const db = connect({ kind: 'sqlite', path: ':memory:' });
    opened.push(db);
    if (db.dialect !== 'sqlite') throw new Error('not SQLite');
    expect(checkpointInBackground(db.sqlite, () => {})).toBeUndefined();
  });

  it('runs for a connection opened with backgroundCheckpoints until it is closed', async () => {
    const { path } = open();
    const db = connect({ kind: 'sqlite', path }, { backgroundCheckpoints: true });
    if (db.dialect !== 'sqlite') throw new Error('not SQLite');
    expect(threshold(db)).toBe(10_000);
    await db.close();
    expect(db.sqlite.open).toBe(false);
  });
});
