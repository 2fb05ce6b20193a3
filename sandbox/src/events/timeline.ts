/** What one evaluation recorded. */
export interface Evaluation {
  alertEvents: number;
  reportRuns: number;
}

/** One thing due on an organization's clock: a threshold judgment or a report run. */
export interface Due {
  /** When it was due on the organization's clock; the event it records is dated so. */
  at: Date;
  /** Which count of the evaluation it adds to. */
  counts: keyof Evaluation;
  /** Does it; resolves with how many events it recorded. */
  run: () => number | Promise<number>;
}

/**
 * Walks the timeline from the clock's old time to its new one: everything due, of every alert and report,
 * in the order it fell due (a stable sort: at one instant, in the order given), so events, deliveries and
 * messages are recorded in the order they happened — a clock step over several runs does not record one
 * report's runs before another's earlier ones.
 */
export async function walkTimeline(due: readonly Due[]): Promise<Evaluation> {
  const tally: Evaluation = { alertEvents: 0, reportRuns: 0 };
  const inOrder = [...due].sort((a, b) => a.at.getTime() - b.at.getTime());
  for (const item of inOrder) tally[item.counts] += await item.run();
  return tally;
}
