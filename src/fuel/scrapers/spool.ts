/**
 * Lists written to a private temporary file as they come and read back in the same order, so a feed read
 * in parts is not held whole while the rest arrives. The first list stays in memory: a feed that hands
 * over one part (most) never touches the disk.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';

export class Spool<T> {
  private first: T[] | null = null;
  private dir: string | null = null;
  private fd: number | null = null;
  private lengths: number[] = [];

  /** How many lists were added. */
  get size(): number {
    return (this.first ? 1 : 0) + this.lengths.length;
  }

  add(list: T[]): void {
    if (this.size === 0) {
      this.first = list;
      return;
    }
    if (this.fd === null) {
      this.dir = mkdtempSync(path.join(tmpdir(), 'specyard-feed-'));
      this.fd = openSync(path.join(this.dir, 'spool'), 'w+', 0o600);
    }
    const bytes = serialize(list);
    writeSync(this.fd, bytes);
    this.lengths.push(bytes.length);
  }

  /** The lists in the order they were added, with their place (0-based). */
  *lists(): Generator<[number, T[]]> {
    if (this.first) yield [0, this.first];
    let position = 0;
    for (const [i, length] of this.lengths.entries()) {
      const bytes = Buffer.allocUnsafe(length);
      let read = 0;
      while (read < length) read += readSync(this.fd as number, bytes, read, length - read, position + read);
      position += length;
      yield [i + 1, deserialize(bytes) as T[]];
    }
  }

  /** Lets the lists go and removes the file. */
  close(): void {
    this.first = null;
    this.lengths = [];
    if (this.fd !== null) closeSync(this.fd);
    if (this.dir !== null) rmSync(this.dir, { recursive: true, force: true });
    this.fd = null;
    this.dir = null;
  }
}
