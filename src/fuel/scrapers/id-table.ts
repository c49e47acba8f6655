import { hash32 } from '../store/sample-key';

/**
 * A map from station ids to small whole numbers for a feed's whole run, kept in a few flat arrays: each id's
 * UTF-8 bytes end to end in one buffer, found through an open-addressing table of their hashes. A
 * `Map<string, number>` of a 10,000,000-point charger register's ids took about 880 MB; this takes the
 * ids' bytes and about 20 more a key, its arrays grown by doubling (about 420 MB for those 10,000,000 ids
 * of 13-14 characters; scripts/bench/README.md, fuel ingest). Lookups compare the bytes, so the answer is
 * exact whatever the hashes do.
 */
export class IdTable {
  /** The keys' bytes, one after the other; past `textEnd`, room for the key being looked up. */
  private text = Buffer.allocUnsafe(1 << 16);
  private textEnd = 0;
  /** Key i's bytes are text[starts[i], starts[i + 1]). */
  private starts = new Uint32Array(1025);
  private hashes = new Uint32Array(1024);
  private numbers = new Int32Array(1024);
  /** Key index + 1 per slot, 0 for an empty slot; at most three quarters full. */
  private slots = new Int32Array(2048);
  size = 0;

  get(id: string): number | undefined {
    const found = this.find(id, hash32(id));
    return found < 0 ? undefined : this.numbers[found];
  }

  has(id: string): boolean {
    return this.find(id, hash32(id)) >= 0;
  }

  set(id: string, value: number): void {
    const hash = hash32(id);
    const found = this.find(id, hash);
    if (found >= 0) {
      this.numbers[found] = value;
      return;
    }
    // find() left the key's bytes at textEnd: keep them.
    const key = this.size;
    if (key + 1 >= this.hashes.length) this.growKeys();
    const length = this.pendingLength;
    this.textEnd += length;
    this.starts[key + 1] = this.textEnd;
    this.hashes[key] = hash;
    this.numbers[key] = value;
    this.size++;
    this.slots[this.freeSlot] = key + 1;
    if (this.size * 4 > this.slots.length * 3) this.rehash(this.slots.length * 2);
  }

  /** Sets these bits of a key's number; false (and nothing set) when the table lacks the key. */
  addBits(id: string, bits: number): boolean {
    const found = this.find(id, hash32(id));
    if (found < 0) return false;
    this.numbers[found] = (this.numbers[found] as number) | bits;
    return true;
  }

  /** Every key's number, in the order the keys were first set. */
  *values(): Generator<number> {
    for (let i = 0; i < this.size; i++) yield this.numbers[i] as number;
  }

  /** Lets the arrays go; the table is empty after. */
  clear(): void {
    this.text = Buffer.allocUnsafe(1 << 16);
    this.textEnd = 0;
    this.starts = new Uint32Array(1025);
    this.hashes = new Uint32Array(1024);
    this.numbers = new Int32Array(1024);
    this.slots = new Int32Array(2048);
    this.size = 0;
  }

  /** The length find() wrote at textEnd, and the empty slot where the key would go. */
  private pendingLength = 0;
  private freeSlot = 0;

  /** The key's index, or -1 (then pendingLength and freeSlot say where it would go). */
  private find(id: string, hash: number): number {
    // A UTF-16 unit is at most 3 bytes of UTF-8.
    if (this.textEnd + id.length * 3 + 1 > this.text.length) this.growText(this.textEnd + id.length * 3 + 1);
    let length: number;
    if (id.isWellFormed()) length = this.text.write(id, this.textEnd, 'utf8');
    else {
      // UTF-8 would write a lone surrogate as U+FFFD, as it writes U+FFFD itself: such an id is kept as
      // its UTF-16 units after a byte UTF-8 never holds, so two keys' bytes are equal only if they are.
      this.text[this.textEnd] = 0xff;
      length = 1 + this.text.write(id, this.textEnd + 1, 'utf16le');
    }
    this.pendingLength = length;
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot] as number;
      if (entry === 0) {
        this.freeSlot = slot;
        return -1;
      }
      const key = entry - 1;
      if (this.hashes[key] !== hash) continue;
      const start = this.starts[key] as number;
      const end = this.starts[key + 1] as number;
      if (
        end - start === length &&
        this.text.compare(this.text, this.textEnd, this.textEnd + length, start, end) === 0
      )
        return key;
    }
  }

  private growText(least: number): void {
    let size = this.text.length * 2;
    while (size < least) size *= 2;
    const text = Buffer.allocUnsafe(size);
    this.text.copy(text, 0, 0, this.textEnd);
    this.text = text;
  }

  private growKeys(): void {
    const size = this.hashes.length * 2;
    const starts = new Uint32Array(size + 1);
    starts.set(this.starts);
    this.starts = starts;
    const hashes = new Uint32Array(size);
    hashes.set(this.hashes);
    this.hashes = hashes;
    const numbers = new Int32Array(size);
    numbers.set(this.numbers);
    this.numbers = numbers;
  }

  private rehash(size: number): void {
    const slots = new Int32Array(size);
    const mask = size - 1;
    for (let key = 0; key < this.size; key++) {
      let slot = (this.hashes[key] as number) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = key + 1;
    }
    this.slots = slots;
  }
}
