/**
 * The message ids an import has seen, to report duplicates. Exports list ids in ascending order, mostly in
 * unbroken runs, so those are kept as runs `[first, last]` in one growing Float64Array (16 bytes a run,
 * searched by bisection); the few that come out of order go to a Set. Ten million consecutive ids take
 * 16 bytes, where one number per id had taken 80 MB (and 200 MB while its array doubled).
 */
export class SeenIds {
  /** first0, last0, first1, last1, ...: ascending, not touching. */
  private runs = new Float64Array(512);
  private length = 0;
  private readonly others = new Set<number>();

  private inRuns(id: number): boolean {
    let lo = 0;
    let hi = this.length / 2 - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const first = this.runs[2 * mid] as number;
      const last = this.runs[2 * mid + 1] as number;
      if (id < first) hi = mid - 1;
      else if (id > last) lo = mid + 1;
      else return true;
    }
    return false;
  }

  /** Records the id; false when it was seen before. */
  add(id: number): boolean {
    const last = this.length > 0 ? (this.runs[this.length - 1] as number) : Number.NEGATIVE_INFINITY;
    if (id === last + 1) {
      this.runs[this.length - 1] = id;
      return true;
    }
    if (id > last) {
      if (this.length === this.runs.length) {
        const grown = new Float64Array(this.runs.length * 2);
        grown.set(this.runs);
        this.runs = grown;
      }
      this.runs[this.length++] = id;
      this.runs[this.length++] = id;
      return true;
    }
    if (this.inRuns(id) || this.others.has(id)) return false;
    this.others.add(id);
    return true;
  }
}
