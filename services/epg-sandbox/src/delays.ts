/** Waits that a stopping service can cut short, so a held-back answer never holds up shutdown. */
export class Delays {
  private readonly pending = new Set<() => void>();

  /** Resolves after `ms`, or at once when release() is called first. */
  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.pending.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.pending.add(done);
    });
  }

  /** Ends every wait now. */
  release(): void {
    for (const done of [...this.pending]) done();
  }
}
