/**
 * The sweep's time budget. The report phase's time is reserved up front, so a run that
 * hits its deadline still writes its matrix; cells not reached become `not-run: budget`.
 */
export class Deadline {
  private readonly endsAt: number;

  constructor(
    budgetMs: number,
    private readonly reserveMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.endsAt = now() + budgetMs;
  }

  /** Time left for cells, after the report's reserve. */
  remainingForWork(): number {
    return Math.max(0, this.endsAt - this.reserveMs - this.now());
  }

  /** True once work must stop so the report still fits. */
  workExpired(): boolean {
    return this.remainingForWork() <= 0;
  }

  remaining(): number {
    return Math.max(0, this.endsAt - this.now());
  }
}
