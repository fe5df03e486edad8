// Bounded restarts after crashes: at most `max` restarts within `windowMs`;
// past that the server stays stopped until the user restarts it. Pure logic
// (the clock is a parameter).

export interface RestartDecision {
  restart: boolean;
  /** 1-based count of crashes inside the window, this one included. */
  crashes: number;
  max: number;
  message: string;
}

export class RestartPolicy {
  private crashes: number[] = [];

  constructor(
    readonly max = 5,
    readonly windowMs = 3 * 60 * 1000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records a crash and decides whether to restart. */
  crashed(): RestartDecision {
    const t = this.now();
    this.crashes = this.crashes.filter((c) => t - c < this.windowMs);
    this.crashes.push(t);
    const n = this.crashes.length;
    const minutes = Math.round(this.windowMs / 60000);
    if (n <= this.max) {
      return {
        restart: true,
        crashes: n,
        max: this.max,
        message: `The scalelint server stopped unexpectedly; restarting it (restart ${n} of ${this.max} allowed in ${minutes} minutes).`,
      };
    }
    return {
      restart: false,
      crashes: n,
      max: this.max,
      message: `The scalelint server stopped unexpectedly ${n} times in ${minutes} minutes and will not be restarted. See the output for its last words, then run "scalelint: Restart server".`,
    };
  }

  /** Forgets past crashes (after a manual restart). */
  reset(): void {
    this.crashes = [];
  }
}
